// Preloaded with `node --import` by module-load.test.ts: records the URL of every module the program loads, one a
// line, in the file named by $MODULE_LOG (Node's module hooks run in a thread of their own, so they write it).
import { register } from "node:module";

register(
	`data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
	appendFileSync(${JSON.stringify(process.env.MODULE_LOG)}, url + "\\n");
	return next(url, context);
}`)}`,
);
