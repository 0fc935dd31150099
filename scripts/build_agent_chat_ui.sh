#!/usr/bin/env bash
# Build agent-chat-ui as langchain-ai publishes it on npm, for tests/e2e/test_agent_chat_ui.py.
#
# create-agent-chat-app (npm) carries agent-chat-ui's Vite template; its own CLI only asks
# questions and copies it, so this copies the template and builds it without prompts. The
# template's agent backends (@langchain/langgraph-api, -cli) and turbo are not needed by the
# page and are left out. Everything comes from the npm registry; the build runs offline.
#
# Usage: scripts/build_agent_chat_ui.sh [DIR]   (default: ~/.cache/codeweaver/agent-chat-ui)
set -euo pipefail
VERSION="${CREATE_AGENT_CHAT_APP_VERSION:-0.1.6}"
DIR="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/codeweaver/agent-chat-ui}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm pack --silent "create-agent-chat-app@$VERSION" >/dev/null && tar xzf ./*.tgz)
rm -rf "$DIR" && mkdir -p "$(dirname "$DIR")"
cp -r "$WORK/package/templates/vite" "$DIR"
cd "$DIR"
node -e '
const fs = require("fs");
const p = JSON.parse(fs.readFileSync("package.json"));
for (const name of ["@langchain/langgraph-api", "@langchain/langgraph-cli"]) delete p.dependencies[name];
delete p.devDependencies.turbo;
fs.writeFileSync("package.json", JSON.stringify(p, null, 2));'
npm install --no-audit --no-fund --loglevel=error
npx vite build --logLevel warn
echo "agent-chat-ui (create-agent-chat-app@$VERSION) built in $DIR/dist"
