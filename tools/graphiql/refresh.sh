#!/usr/bin/env bash
# Refreshes service/api/static/graphiql/ (the GraphiQL page's scripts, styles and licences) from the
# npm packages pinned in package-lock.json, so the page needs no network but the service.
# To move a version: edit package.json, `npm install --package-lock-only`, run this, commit.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../service/api/static/graphiql"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$work/"
(cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
m="$work/node_modules"
minify() { "$m/.bin/esbuild" --minify --log-level=warning "$1" --outfile="$out/$2"; }
cp "$m/react/umd/react.production.min.js" "$m/react-dom/umd/react-dom.production.min.js" "$out/"
minify "$m/graphiql/graphiql.min.js" graphiql.min.js  # the published "min" is not minified
minify "$m/graphiql/graphiql.min.css" graphiql.min.css
cp "$m/@graphiql/plugin-explorer/dist/index.umd.js" "$out/plugin-explorer.umd.js"
cp "$m/@graphiql/plugin-explorer/dist/style.css" "$out/plugin-explorer.css"
{
  echo "Third-party assets of the GraphiQL page, as published on the npm registry (all MIT)."
  for package in react react-dom graphiql @graphiql/plugin-explorer; do
    version="$(node -p "require('$m/$package/package.json').version")"
    echo
    echo "== $package $version =="
    # the explorer plugin ships no LICENSE file: it is published from graphiql's repository
    # under that repository's licence
    cat "$m/$package/LICENSE" 2>/dev/null || cat "$m/graphiql/LICENSE"
  done
} > "$out/LICENSES.txt"
