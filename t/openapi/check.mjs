// t/openapi/check.mjs -- run by t/e2e/test_prompts_openapi.py.
//
// usage: node check.mjs OPENAPI.json [RESPONSES.json]
//
// 1. Validates the document against the OpenAPI 3.1 schema
//    (@seriousme/openapi-schema-validator).
// 2. Validates each recorded live response against the schema the
//    document gives for its operation and status (Ajv, JSON Schema
//    2020-12).  RESPONSES.json is an array of
//    {"path": "/api/v1/prompts/{slug}", "status": 200, "body": {...}}.
// Prints one line per failure; exits 1 if there was any.
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [docPath, respPath] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(docPath, "utf8"));
let failures = 0;

const validator = new Validator();
const res = await validator.validate(doc);
if (!res.valid) {
	console.log("openapi: the document is not valid OpenAPI " +
	    validator.version + ":");
	console.log(JSON.stringify(res.errors, null, 2));
	failures++;
} else
	console.log("openapi: document valid (OpenAPI " + validator.version +
	    ")");

if (respPath) {
	const ajv = new Ajv2020({ strict: false, allErrors: true });
	addFormats(ajv);
	ajv.addSchema(doc, "openapi.json");
	const pointer = (parts) => parts.map((p) => String(p)
	    .replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
	const resolve = (obj) => {
		while (obj && obj.$ref) {
			const segs = obj.$ref.replace(/^#\//, "").split("/")
			    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
			obj = segs.reduce((o, k) => o[k], doc);
		}
		return obj;
	};
	const cache = new Map();
	const responses = JSON.parse(readFileSync(respPath, "utf8"));
	let checked = 0;
	for (const r of responses) {
		const op = doc.paths[r.path] && doc.paths[r.path].get;
		const where = `${r.path} ${r.status}` +
		    (r.url ? ` (${r.url})` : "");
		if (!op) {
			console.log(`${where}: no such path in the document`);
			failures++;
			continue;
		}
		const resp = resolve(op.responses[String(r.status)]);
		if (!resp) {
			console.log(`${where}: status not documented`);
			failures++;
			continue;
		}
		for (const h of Object.keys(resp.headers || {}))
			if (r.headers && !(h.toLowerCase() in r.headers)) {
				console.log(`${where}: documented header ${h} ` +
				    "missing");
				failures++;
			}
		if (!resp.content) {
			if (r.body !== null) {
				console.log(`${where}: body where none is ` +
				    "documented");
				failures++;
			}
			checked++;
			continue;
		}
		// The schema's place in the document, for Ajv's $ref.
		let ref;
		const inline = op.responses[String(r.status)];
		if (inline.$ref)
			ref = "openapi.json" + inline.$ref +
			    "/content/application~1json/schema";
		else
			ref = "openapi.json#/" + pointer(["paths", r.path, "get",
			    "responses", String(r.status), "content",
			    "application/json", "schema"]);
		let validate = cache.get(ref);
		if (!validate) {
			validate = ajv.compile({ $ref: ref });
			cache.set(ref, validate);
		}
		if (!validate(r.body)) {
			console.log(`${where}: ` +
			    JSON.stringify(validate.errors.slice(0, 5)));
			failures++;
		}
		checked++;
	}
	console.log(`openapi: ${checked} responses checked`);
}
process.exit(failures ? 1 : 0);
