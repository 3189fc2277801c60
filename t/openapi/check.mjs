// t/openapi/check.mjs -- run by the OpenAPI tests of both services
// (t/e2e/openapilib.py: test_prompts_openapi.py, test_links_openapi.py).
//
// usage: node check.mjs OPENAPI.json [RECORDS.json]
//
// 1. Validates the document against the OpenAPI 3.1 schema
//    (@seriousme/openapi-schema-validator).
// 2. Checks each record of RECORDS.json, an array of
//    - live responses: {"path": "/api/v1/links/{id}", "method": "get",
//      "status": 200, "headers": {...lower-case names...}, "body": {...}}
//      ("method" defaults to get; "body" is null when the answer had no
//      JSON body).  The response the document gives for the operation and
//      status -- or, with "component": "NAME", the response
//      #/components/responses/NAME -- must list the answer's media type;
//      the body must validate against its schema (Ajv, JSON Schema
//      2020-12); every header it documents must be there (unless the
//      header says "required": false) and match its schema.  With
//      "schema": "#/components/schemas/NAME" (e.g. a 405 to a method no
//      operation has), the JSON body is checked against that schema only.
//    - request bodies: {"request": true, "path": ..., "method": "post",
//      "body": {...}, "valid": true|false}: the operation's JSON request
//      schema must accept the body exactly when "valid" says so (what the
//      service did with it).
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
	// Follows $refs; returns [object, its JSON pointer in the document].
	const resolveAt = (obj, at) => {
		while (obj && obj.$ref) {
			at = obj.$ref;
			const segs = obj.$ref.replace(/^#\//, "").split("/")
			    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
			obj = segs.reduce((o, k) => o[k], doc);
		}
		return [obj, at];
	};
	const cache = new Map();
	const compiled = (ref) => {
		let v = cache.get(ref);
		if (!v) {
			v = ajv.compile({ $ref: "openapi.json" + ref });
			cache.set(ref, v);
		}
		return v;
	};
	const mediaType = (h) => h && h["content-type"] ?
	    h["content-type"].split(";")[0].trim().toLowerCase() : null;
	const records = JSON.parse(readFileSync(respPath, "utf8"));
	let checked = 0, requests = 0;
	for (const r of records) {
		const method = (r.method || "get").toLowerCase();
		const item = doc.paths[r.path];
		const op = item && item[method];
		const where = `${r.path} ${r.request ? method.toUpperCase() +
		    " request" : (r.method ? method.toUpperCase() + " " : "") +
		    r.status}` + (r.url ? ` (${r.url})` : "");
		if (!item || (!op && !r.component && !r.schema)) {
			console.log(`${where}: no such ` + (item ? "operation" :
			    "path") + " in the document");
			failures++;
			continue;
		}
		if (r.request) {
			const [rb, rbAt] = op.requestBody ?
			    resolveAt(op.requestBody, "#/" + pointer(["paths",
			    r.path, method, "requestBody"])) : [null, null];
			if (!rb || !rb.content || !rb.content["application/json"]) {
				console.log(`${where}: no JSON request body ` +
				    "documented");
				failures++;
				continue;
			}
			const validate = compiled(rbAt + "/" + pointer([
			    "content", "application/json", "schema"]));
			const ok = validate(r.body);
			if (ok !== r.valid) {
				console.log(`${where}: the schema ` + (ok ?
				    "accepts" : "refuses") + " what the service " +
				    (r.valid ? "accepted" : "refused") + ": " +
				    JSON.stringify(r.body).slice(0, 300) +
				    (ok ? "" : " " +
				    JSON.stringify(validate.errors.slice(0, 3))));
				failures++;
			}
			requests++;
			continue;
		}
		if (r.schema) {
			const validate = compiled(r.schema);
			if (!validate(r.body)) {
				console.log(`${where}: ` +
				    JSON.stringify(validate.errors.slice(0, 5)));
				failures++;
			}
			checked++;
			continue;
		}
		let resp, at;
		if (r.component)
			[resp, at] = resolveAt({ $ref: "#/components/responses/" +
			    r.component }, null);
		else
			[resp, at] = resolveAt(op.responses[String(r.status)],
			    "#/" + pointer(["paths", r.path, method, "responses",
			    String(r.status)]));
		if (!resp) {
			console.log(`${where}: ` + (r.component ? "no response " +
			    r.component : "status not documented"));
			failures++;
			continue;
		}
		for (const [h, hdef] of Object.entries(resp.headers || {})) {
			const [def] = resolveAt(hdef, null);
			const raw = r.headers ? r.headers[h.toLowerCase()] :
			    undefined;
			if (r.headers && raw === undefined) {
				if (def.required !== false) {
					console.log(`${where}: documented ` +
					    `header ${h} missing`);
					failures++;
				}
				continue;
			}
			if (raw === undefined || !def.schema)
				continue;
			// Header values are text: integers are compared as
			// numbers.
			const s = resolveAt(def.schema, null)[0];
			const value = s.type === "integer" && /^-?[0-9]+$/
			    .test(raw) ? Number(raw) : raw;
			if (!ajv.validate(s, value)) {
				console.log(`${where}: header ${h}: ` +
				    JSON.stringify(raw) + " does not match " +
				    JSON.stringify(s));
				failures++;
			}
		}
		const mt = mediaType(r.headers);
		if (!resp.content) {
			if (r.body !== null) {
				console.log(`${where}: body where none is ` +
				    "documented");
				failures++;
			}
			checked++;
			continue;
		}
		if (mt !== null && !(mt in resp.content)) {
			console.log(`${where}: media type ${mt} not documented`);
			failures++;
			checked++;
			continue;
		}
		const type = mt || "application/json";
		if (type !== "application/json") {
			checked++;	// not JSON: no schema to check it against
			continue;
		}
		// The schema's place in the document, for Ajv's $ref.
		const validate = compiled(at + "/" + pointer(["content",
		    "application/json", "schema"]));
		if (!validate(r.body)) {
			console.log(`${where}: ` +
			    JSON.stringify(validate.errors.slice(0, 5)));
			failures++;
		}
		checked++;
	}
	console.log(`openapi: ${checked} responses checked`);
	if (requests)
		console.log(`openapi: ${requests} request bodies checked`);
}
process.exit(failures ? 1 : 0);
