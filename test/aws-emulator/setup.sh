#!/usr/bin/env bash
# Installs the AWS API emulator the drain's AWS tests run against (moto's server mode, exactly the
# versions requirements.txt pins) into .cache/moto-venv. Idempotent and cheap when already installed:
# it reinstalls only when requirements.txt changed since the last install or the install is broken.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.cache/moto-venv
requirements=test/aws-emulator/requirements.txt
stamp="$venv/.requirements.sha256"
want=$(sha256sum "$requirements" | cut -d' ' -f1)

if [ -x "$venv/bin/moto_server" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    exit 0
fi

command -v python3 >/dev/null || { echo "test/aws-emulator/setup.sh: python3 is not installed; install Python 3.9 or later (e.g. apt-get install python3 python3-venv)" >&2; exit 1; }
python3 -m venv --help >/dev/null 2>&1 || { echo "test/aws-emulator/setup.sh: python3 has no venv module; install it (e.g. apt-get install python3-venv)" >&2; exit 1; }

echo "Installing moto (the AWS API emulator of the drain's tests) into $venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$requirements"
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null
echo "$want" >"$stamp"
"$venv/bin/python" -c 'import moto; print("moto", moto.__version__)'
