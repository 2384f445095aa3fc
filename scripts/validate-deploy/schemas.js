'use strict';
// The JSON schemas the deployment files are checked against, compiled once with ajv.
// Everything is local: schemas/ holds the vendored Compose Specification and strict
// Kubernetes schemas (see schemas/README.md), and the KEDA schema ships inside the
// @kubernetes-models/keda package. Nothing is fetched.

const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020').default;

const SCHEMAS = path.join(__dirname, 'schemas');

const INT32 = [-(2 ** 31), 2 ** 31 - 1];
const INT64 = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

function createAjv() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('int32', { type: 'number', validate: (n) => Number.isInteger(n) && n >= INT32[0] && n <= INT32[1] });
  ajv.addFormat('int64', { type: 'number', validate: (n) => Number.isInteger(n) && n >= INT64[0] && n <= INT64[1] });
  ajv.addFormat('double', { type: 'number', validate: (n) => Number.isFinite(n) });
  ajv.addFormat('float', { type: 'number', validate: (n) => Number.isFinite(n) });
  ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addFormat('date-time', (s) => !Number.isNaN(Date.parse(s)));
  return ajv;
}

/** "must NOT have additional properties" says which one; ajv's default message does not. */
function describeAjvError(error) {
  const where = error.instancePath || '/';
  const p = error.params || {};
  if (p.additionalProperty !== undefined) return `${where}: unknown field "${p.additionalProperty}"`;
  if (p.unevaluatedProperty !== undefined) return `${where}: unknown field "${p.unevaluatedProperty}"`;
  if (p.missingProperty !== undefined) return `${where}: missing required field "${p.missingProperty}"`;
  if (p.allowedValues !== undefined) return `${where}: ${error.message} (${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`;
  return `${where}: ${error.message}`;
}

/**
 * ajv reports every branch of a oneOf/anyOf; the useful lines are the deepest ones. Keep the
 * errors whose path no other error extends, unless that leaves nothing.
 */
function summarizeAjvErrors(errors) {
  const list = errors || [];
  const leaves = list.filter((e) => !['oneOf', 'anyOf', 'if', 'not'].includes(e.keyword));
  const messages = [...new Set((leaves.length > 0 ? leaves : list).map(describeAjvError))];
  return messages.slice(0, 12).concat(messages.length > 12 ? [`... and ${messages.length - 12} more`] : []);
}

let cached;

function loadSchemas() {
  if (cached) return cached;
  const ajv = createAjv();
  const compose = ajv.compile(require(path.join(SCHEMAS, 'compose-spec.json')));
  const kubernetesStrict = require(path.join(SCHEMAS, 'kubernetes-strict.json'));
  ajv.addSchema(kubernetesStrict, 'kubernetes-strict.json');
  const kinds = kubernetesStrict['x-kinds'];
  const validators = new Map();
  const kubernetes = (apiVersion, kind) => {
    const key = `${apiVersion}/${kind}`;
    const name = kinds[key];
    if (!name) return null;
    if (!validators.has(key)) validators.set(key, ajv.getSchema(`kubernetes-strict.json#/$defs/${name}`));
    return validators.get(key);
  };
  cached = { ajv, compose, kubernetes, kubernetesVersion: kubernetesStrict['x-kubernetes-version'], kubernetesKinds: Object.keys(kinds) };
  return cached;
}

/** Validates data with a compiled ajv function; returns readable messages (none when valid). */
function check(validate, data) {
  return validate(data) ? [] : summarizeAjvErrors(validate.errors);
}

module.exports = { loadSchemas, check, createAjv, summarizeAjvErrors };
