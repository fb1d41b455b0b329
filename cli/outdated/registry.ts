/**
 * An image's tags, from its registry's OCI distribution API (`GET /v2/<name>/tags/list`), without
 * credentials. Public registries (Docker Hub, ghcr.io, quay.io, registry.k8s.io, docker.elastic.co)
 * answer the first request with 401 and a `WWW-Authenticate: Bearer realm=…,service=…,scope=…`
 * challenge; the realm hands out an anonymous pull token for public repositories. Long tag lists come
 * in pages linked by a `Link: <…>; rel="next"` header.
 */
import { httpGet, HttpSettings, SourceError, statusError } from "./http";
import { registryApiBase } from "./imageRef";
import { excerpt } from "../net/excerpt";

/** Pages followed at most; Docker Hub's busiest repositories need a few dozen at the registry's default page size. */
const MAX_PAGES = 200;

/** A repository in a registry. */
export interface TagSource {
    /** Registry host as in image references (`docker.io`, `ghcr.io`, `registry.example.com:5000`). */
    readonly registry: string;
    /** Repository path, e.g. `nginx/nginx-ingress`. */
    readonly repository: string;
}

/**
 * Lists every tag of a repository, following pages.
 *
 * @throws SourceError naming the URL: unreachable, private (credentials asked for), missing, rate-limited or not a tag list.
 */
export async function listTags(source: TagSource, settings: HttpSettings): Promise<string[]> {
    const base = registryApiBase(source.registry);
    const endpoints = aliasRegistryName(source.registry, new URL(base).host, settings.endpoints);
    const http: HttpSettings = { ...settings, endpoints };

    let url = `${base}/v2/${source.repository}/tags/list`;
    let authorization: string | undefined;
    const tags: string[] = [];
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await httpGet(url, http, { accept: "application/json", ...(authorization ? { authorization } : {}) });
        if (answer.status === 401 && authorization === undefined) {
            authorization = `Bearer ${await anonymousToken(answer.headers.get("www-authenticate"), source, answer.url, http)}`;
            page--;
            continue;
        }
        if (answer.status === 401 || answer.status === 403) {
            throw new SourceError(answer.url, `the registry refused the anonymous token: HTTP ${answer.status} (the repository may be private)`);
        }
        if (answer.status === 404) throw new SourceError(answer.url, "no such repository in this registry, or it is private: HTTP 404");
        if (answer.status === 429) {
            const after = answer.headers.get("retry-after");
            throw new SourceError(answer.url, `the registry is rate-limiting these requests: HTTP 429${after ? `; retry after ${after} s` : ""}`);
        }
        if (answer.status !== 200) throw statusError(answer, "listing tags failed");
        seen.add(answer.url);
        tags.push(...readTagList(answer.body, answer.url));

        // RFC 8288: a relative link is relative to the answer's own URL (a mirror's, when overridden).
        const next = nextPage(answer.headers.get("link"), answer.url);
        if (next === undefined || seen.has(next)) return tags;
        url = next;
    }
    throw new SourceError(url, `more than ${MAX_PAGES} pages of tags; stopped`);
}

/** An override written for the registry's name (`docker.io=…`) also applies to its API host (`registry-1.docker.io`). */
function aliasRegistryName(registry: string, apiHost: string, endpoints: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
    const byName = endpoints.get(registry.toLowerCase());
    if (byName === undefined || endpoints.has(apiHost)) return endpoints;
    return new Map([...endpoints, [apiHost, byName]]);
}

/** One step of the token dance: ask the challenge's realm for an anonymous pull token. */
async function anonymousToken(challengeHeader: string | null, source: TagSource, url: string, settings: HttpSettings): Promise<string> {
    const challenge = parseChallenge(challengeHeader);
    if (!challenge || challenge.scheme !== "bearer" || !challenge.params.realm) {
        const how = challenge ? `${challenge.scheme} authentication` : "authentication";
        throw new SourceError(url, `the registry asks for credentials (${how}) and offers no anonymous access: HTTP 401`);
    }
    const tokenUrl = new URL(challenge.params.realm);
    if (challenge.params.service) tokenUrl.searchParams.set("service", challenge.params.service);
    tokenUrl.searchParams.set("scope", challenge.params.scope ?? `repository:${source.repository}:pull`);
    const answer = await httpGet(tokenUrl.toString(), settings, { accept: "application/json" });
    if (answer.status !== 200) throw statusError(answer, "the registry's token service gave no anonymous token");
    let doc: { token?: unknown; access_token?: unknown } | null;
    try {
        doc = JSON.parse(answer.body) as typeof doc;
    } catch {
        throw new SourceError(answer.url, `the token service's answer is not JSON (it begins ${excerpt(answer.body)}), so it has no token`);
    }
    const token = doc?.token ?? doc?.access_token;
    if (typeof token !== "string" || token === "") throw new SourceError(answer.url, "the token service's answer has no token");
    return token;
}

/** A `WWW-Authenticate` challenge: its scheme (lower case) and parameters. */
export interface Challenge {
    readonly scheme: string;
    readonly params: Readonly<Record<string, string>>;
}

/** Reads `Bearer realm="…",service="…",scope="…"`; undefined when there is no header. */
export function parseChallenge(header: string | null | undefined): Challenge | undefined {
    const m = /^\s*([A-Za-z][\w-]*)\s*(.*)$/.exec(header ?? "");
    if (!m) return undefined;
    const params: Record<string, string> = {};
    for (const p of m[2]!.matchAll(/([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g)) {
        params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, "$1") : p[3]!;
    }
    return { scheme: m[1]!.toLowerCase(), params };
}

/** The `rel="next"` target of a `Link` header, resolved against the page's URL. */
export function nextPage(link: string | null | undefined, pageUrl: string): string | undefined {
    for (const part of (link ?? "").split(",")) {
        const m = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
        if (m && /\brel\s*=\s*"?next"?/i.test(m[2]!)) return new URL(m[1]!, pageUrl).toString();
    }
    return undefined;
}

function readTagList(body: string, url: string): string[] {
    let doc: unknown;
    try {
        doc = JSON.parse(body);
    } catch {
        throw new SourceError(url, `the answer is not JSON (it begins ${excerpt(body)}), so not a tag list`);
    }
    const tags = (doc as { tags?: unknown } | null)?.tags;
    // An empty repository may answer "tags": null.
    if (tags === null) return [];
    if (!Array.isArray(tags) || !tags.every((t) => typeof t === "string")) throw new SourceError(url, 'the answer has no "tags" list of strings');
    return tags as string[];
}
