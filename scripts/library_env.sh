#!/usr/bin/env bash
# Create the pinned library environment (data/library_env/requirements.txt) in DIR:
#
#     scripts/library_env.sh DIR [PYTHON]
#
# A plain virtualenv with pip, made by PYTHON (default: python3 on PATH; the pins need 3.11 or
# newer), outside the project folder so that neither uv nor the tests ever see it. Then
#
#     codeweaver ingest --python DIR/bin/python
#
# builds one documentation pack per library. Downloads about 150 MB the first time.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 DIR [PYTHON]" >&2
    exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$(realpath -m "$1")"
python="${2:-python3}"
case "$target/" in
    "$root"/*)
        echo "$0: $target is inside the project folder; give a folder outside $root" >&2
        exit 2
        ;;
esac
"$python" -m venv "$target"
# Bytecode compiled as pip does by default; the ingest's figures are measured that way.
"$target/bin/python" -m pip install --quiet --disable-pip-version-check \
    --requirement "$root/data/library_env/requirements.txt"
"$target/bin/python" -m pip list --format=freeze --disable-pip-version-check \
    > "$target/installed.txt"
echo "$target: $(wc -l < "$target/installed.txt") distributions; the pins:"
grep -iE '^(pandas|numpy|matplotlib|django|beautifulsoup4|selenium|requests|flask|sqlalchemy|scipy)==' \
    "$target/installed.txt"
