#!/bin/sh
# Compiles the server into build/ when a source changed, then runs it in the foreground.
# Configured by environment variables only: see README.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jars=/usr/share/java/jackson-databind.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-annotations.jar
classes="$here/build/classes"
stamp="$here/build/compiled"
if [ ! -f "$stamp" ] || [ -n "$(find "$here/src" -name '*.java' -newer "$stamp")" ]; then
  rm -rf "$classes"
  mkdir -p "$classes"
  touch "$stamp.new"
  javac -d "$classes" -cp "$jars" $(find "$here/src" -name '*.java')
  mv "$stamp.new" "$stamp"
fi
exec java -Xmx256m -cp "$classes:$jars" animalstore.Main
