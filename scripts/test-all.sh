#!/usr/bin/env bash
# The one test command (npm test): everything a change must pass, in the order that fails fastest.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step prints the minutes spent so far, so a CI log shows which step grew (the whole run
# must stay well inside CI's limit on a 2-core machine).
started=$SECONDS
step() { printf '\n\033[1m== %s\033[0m (at %d s)\n' "$*" $((SECONDS - started)); }

# Services the integration tests use for real (docs: environment). Missing means fail, not skip.
need_port() {
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then
    echo "ERROR: $1 is not reachable on 127.0.0.1:$2; the tests need it (see README, Testing)." >&2
    exit 1
  fi
}
need_port PostgreSQL 5432
need_port Redis 6379
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "ERROR: Chromium not found at ${CHROMIUM_PATH:-/usr/bin/chromium}. Install it: apt-get install -y chromium" >&2
  exit 1
fi

# The load balancer of the multi-instance tests; they start it themselves, in the foreground.
if [ ! -x "${NGINX_PATH:-/usr/sbin/nginx}" ]; then
  echo "ERROR: nginx not found at ${NGINX_PATH:-/usr/sbin/nginx}. Install it: apt-get install -y nginx" >&2
  exit 1
fi

# Lint, format and types read the same files and each keeps one core busy: run side by side,
# each into its own log, printed in order (and the failing ones named) once all three are done.
step "lint, format, typecheck"
checks=$(mktemp -d)
npx eslint . >"$checks/lint" 2>&1 & lint=$!
npx prettier --check . --log-level warn >"$checks/format" 2>&1 & format=$!
npx tsc --noEmit >"$checks/typecheck" 2>&1 & typecheck=$!
failed=""
wait $lint || failed="$failed lint"
wait $format || failed="$failed format"
wait $typecheck || failed="$failed typecheck"
for check in lint format typecheck; do
  if [ -s "$checks/$check" ]; then echo "-- $check:"; cat "$checks/$check"; fi
done
rm -rf "$checks"
if [ -n "$failed" ]; then echo "FAILED:$failed" >&2; exit 1; fi
step unit;        npx vitest run --project unit
step build;       npx vite build --logLevel warn && npx tsx scripts/build-server.ts
step budget;      npx tsx bench/bundle-size.ts --check
step integration; npx vitest run --project integration
step e2e;         npx playwright test
echo; echo "All tests passed in $((SECONDS - started)) s."
