// t/openapi/client-prompts.ts -- a consumer of the prompt library API,
// written against the types openapi-typescript generates from
// src/prompts/openapi.json (prompts.d.ts).  Only compiled, as
// client-links.ts is.
import type { paths } from "./prompts";

type Json<T> = T extends { content: { "application/json": infer B } } ?
    B : never;
type Answer<P extends keyof paths> = paths[P] extends
    { get: { responses: { 200: infer R } } } ? Json<R> : never;
type Query<P extends keyof paths> = paths[P] extends
    { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;

async function get<P extends keyof paths>(path: P, query?: Query<P>,
    slug?: string): Promise<Answer<P>> {
	const u = new URL(slug === undefined ? path :
	    path.replace("{slug}", encodeURIComponent(slug)),
	    "https://p.example");
	for (const [k, v] of Object.entries(query ?? {}))
		if (v !== undefined)
			u.searchParams.set(k, String(v));
	const r = await fetch(u);
	return await r.json() as Answer<P>;
}

export async function tour(): Promise<number> {
	let n = 0;
	const list = await get("/api/v1/prompts", { q: "email", lang: "en",
	    sort: "rating", limit: 10, free: "1" });
	for (const p of list.prompts)
		n += p.slug.length;
	const slug = list.prompts[0]?.slug ?? "x";
	const one = await get("/api/v1/prompts/{slug}", { lang: "zh" },
	    slug);
	n += one.prompt.title.length;
	// @ts-expect-error: sort takes three values
	await get("/api/v1/prompts", { sort: "x" });

	const tags = await get("/api/v1/tags", { min_count: 2 });
	n += tags.tags.length;
	const cols = await get("/api/v1/collections");
	const col = cols.collections[0]?.slug;
	if (col !== undefined)
		n += (await get("/api/v1/collections/{slug}", {}, col))
		    .collection.items.length;
	n += (await get("/api/v1/models", { q: "gpt" })).models.length;
	await get("/api/v1/tools");
	await get("/api/v1/integrations");
	await get("/api/v1/changelog", { days: 7 });
	const tuts = await get("/api/v1/tutorials");
	const tut = tuts.tutorials[0]?.slug;
	if (tut !== undefined)
		await get("/api/v1/tutorials/{slug}", undefined, tut);
	const kws = await get("/api/v1/keywords");
	const kw = kws.keywords[0]?.slug;
	if (kw !== undefined)
		await get("/api/v1/keywords/{slug}", undefined, kw);
	return n;
}
