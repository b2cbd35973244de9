#!/usr/bin/env bash
# Regenerates docs/config.md from `troupe config --describe`, which is generated
# from the loader's key table (run/config_keys.cpp). tests/app/config_doc_test.cpp
# fails when the two differ.
#
#   scripts/update_config_doc.sh [TROUPE_BINARY]     (default: build/troupe)
set -euo pipefail
cd "$(dirname "$0")/.."
troupe="${1:-build/troupe}"
if [ ! -x "$troupe" ]; then
  echo "update_config_doc: $troupe is not an executable; build first or pass the binary" >&2
  exit 2
fi
describe="$("$troupe" config --describe)"
{
  echo "# Config reference"
  echo
  echo "Every key of a run config, its type, default, allowed values and meaning. Keys are"
  echo "dotted paths into the YAML file (\`run.stop.env_steps\` is \`stop: env_steps:\` under"
  echo "\`run:\`) and can be overridden with \`troupe train CONFIG --set key=value\`."
  echo
  echo "Generated from the loader's field table by \`scripts/update_config_doc.sh\`"
  echo "(\`troupe config --describe\`); do not edit by hand: a test fails when they differ."
  echo
  echo '```text'
  printf '%s\n' "$describe"
  echo '```'
} > docs/config.md.tmp
mv docs/config.md.tmp docs/config.md
echo "update_config_doc: wrote docs/config.md ($(printf '%s\n' "$describe" | grep -c '^[a-z]') keys)"
