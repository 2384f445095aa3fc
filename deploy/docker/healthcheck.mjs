// Container health check (the image has no curl): exits 0 when
// GET http://127.0.0.1:$PORT<path> answers 2xx within 4 s, else 1.
//   node /app/healthcheck.mjs            -> /healthz (the process runs)
//   node /app/healthcheck.mjs /readyz    -> its dependencies answer too
const path = process.argv[2] ?? '/healthz';
const port = process.env.PORT ?? '8080';
const host = process.env.HEALTHCHECK_HOST ?? '127.0.0.1';
try {
  const response = await fetch(`http://${host}:${port}${path}`, { signal: AbortSignal.timeout(4000) });
  if (!response.ok) console.error(`${path}: HTTP ${response.status} ${await response.text().catch(() => '')}`.trim());
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  console.error(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
