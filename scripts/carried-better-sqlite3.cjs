// Stands in for src/store/better-sqlite3-module.ts in the CLI's one-script build (scripts/bundle-cli.mjs): the
// script carries better-sqlite3's JavaScript instead of requiring it from node_modules file by file. Its addon is
// still loaded by path (the driver passes `nativeBinding`).
"use strict";
exports.betterSqlite3Module = () => require("better-sqlite3");
