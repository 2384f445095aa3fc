#!/usr/bin/env bash
# Creates gitdex's Kafka topics, or brings their settings up to date: safe to run on every
# deploy. gitdex also creates missing topics itself (with the broker's defaults), so this is
# for clusters where applications may not create topics, and to set retention.
#
#   KAFKA_BOOTSTRAP_SERVER=broker:9092 KAFKA_BIN=/opt/kafka/bin deploy/kafka/create-topics.sh
#
# KAFKA_BOOTSTRAP_SERVER  host:port of a broker (required)
# KAFKA_BIN               folder of kafka-topics.sh and kafka-configs.sh (default: found on PATH)
# KAFKA_COMMAND_CONFIG    client properties file for TLS/SASL clusters (optional)
# REPLICATION_FACTOR      3        MIN_INSYNC_REPLICAS  2
# PUSH_PARTITIONS         12       (KAFKA_PARTITIONS of gitdex: the ceiling of indexer workers)
# PUSH_RETENTION_MS       7 days   (how far back events can be replayed)
# DLQ_RETENTION_MS        30 days  (how long dead letters wait to be looked at and replayed)
#
# The same topics as Strimzi KafkaTopic resources: deploy/kafka/topics.yaml.
set -euo pipefail

bootstrap=${KAFKA_BOOTSTRAP_SERVER:?set KAFKA_BOOTSTRAP_SERVER to host:port of a broker}
bin=${KAFKA_BIN:+${KAFKA_BIN%/}/}
replication=${REPLICATION_FACTOR:-3}
min_insync=${MIN_INSYNC_REPLICAS:-2}
push_partitions=${PUSH_PARTITIONS:-12}
push_retention=${PUSH_RETENTION_MS:-604800000}
dlq_retention=${DLQ_RETENTION_MS:-2592000000}
client=(--bootstrap-server "$bootstrap")
if [ -n "${KAFKA_COMMAND_CONFIG:-}" ]; then client+=(--command-config "$KAFKA_COMMAND_CONFIG"); fi

# topic NAME PARTITIONS RETENTION_MS
topic() {
  local name=$1 partitions=$2 retention=$3 current
  "${bin}kafka-topics.sh" "${client[@]}" --create --if-not-exists --topic "$name" \
    --partitions "$partitions" --replication-factor "$replication" \
    --config "retention.ms=$retention" --config "min.insync.replicas=$min_insync" --config cleanup.policy=delete
  "${bin}kafka-configs.sh" "${client[@]}" --alter --entity-type topics --entity-name "$name" \
    --add-config "retention.ms=$retention,min.insync.replicas=$min_insync,cleanup.policy=delete"
  current=$("${bin}kafka-topics.sh" "${client[@]}" --describe --topic "$name" | sed -n 's/.*PartitionCount:[[:space:]]*\([0-9][0-9]*\).*/\1/p' | head -n 1)
  if [ -n "$current" ] && [ "$current" -lt "$partitions" ]; then
    # Not raised automatically: more partitions move repositories to other partitions, and
    # a repository's events are ordered only within one. See docs/scaling.md.
    echo "warning: $name has $current partitions, $partitions wanted; raise them on purpose with kafka-topics.sh --alter --partitions $partitions" >&2
  fi
  echo "topic $name: ready (${current:-$partitions} partitions, retention.ms=$retention)"
}

topic gitdex.push.v1 "$push_partitions" "$push_retention"
topic gitdex.push.v1.dlq 1 "$dlq_retention"
