#!/usr/bin/env bash
# Puts gitdex's index templates and creates its indices and write aliases, for clusters
# where gitdex's own Elasticsearch user may not manage templates and indices
# (GITDEX_MANAGE_TEMPLATES=false, docs/deploy.md "Elasticsearch shared with other teams").
# gitdex does exactly this itself on start (ensureReady) when it may; running it twice
# changes nothing. The JSON files beside it are generated from the code (validate-deploy).
#
#   ELASTICSEARCH_URL=https://user:password@es.example:9200 deploy/elasticsearch/apply.sh
#
# ELASTICSEARCH_URL      the cluster (required); credentials may be in the URL
# ELASTICSEARCH_API_KEY  an API key (the encoded id:key) instead of credentials in the URL
# ELASTICSEARCH_CA_FILE  the CA of an https URL
# PREFIX                 ELASTICSEARCH_INDEX_PREFIX of gitdex (default: gitdex)
set -euo pipefail

url=${ELASTICSEARCH_URL:?set ELASTICSEARCH_URL to the cluster, e.g. http://127.0.0.1:9200}
url=${url%/}
prefix=${PREFIX:-gitdex}
dir=$(cd "$(dirname "$0")" && pwd)
auth=()
if [ -n "${ELASTICSEARCH_API_KEY:-}" ]; then auth+=(-H "Authorization: ApiKey ${ELASTICSEARCH_API_KEY}"); fi
if [ -n "${ELASTICSEARCH_CA_FILE:-}" ]; then auth+=(--cacert "${ELASTICSEARCH_CA_FILE}"); fi
curl() { command curl "${auth[@]}" "$@"; }

for file in "$dir"/gitdex-*-v*.json; do
  template=$(basename "$file" .json)          # gitdex-files-v4
  index=${prefix}${template#gitdex}           # <prefix>-files-v4: the physical index
  alias=${index%-v*}                          # <prefix>-files: what gitdex reads and writes
  sed "s/\"gitdex-/\"${prefix}-/g" "$file" \
    | curl -fsS -X PUT "$url/_index_template/$index" -H 'Content-Type: application/json' --data-binary @- > /dev/null
  echo "template $index: put"
  if curl -fsS -o /dev/null "$url/_alias/$alias" 2> /dev/null; then
    echo "alias $alias: exists"
  else
    curl -fsS -X PUT "$url/$index" -H 'Content-Type: application/json' \
      --data-binary "{\"aliases\":{\"$alias\":{\"is_write_index\":true}}}" > /dev/null
    echo "index $index with alias $alias: created"
  fi
done
