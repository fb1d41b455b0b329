/**
 * A Helm repository host and an OCI registry on the loopback address, for `mara outdated`'s tests: it
 * serves index.yaml files under path prefixes, and tag lists behind the anonymous token dance public
 * registries use (401 with a Bearer challenge, a token from the realm, the request again with it), in
 * pages when asked. Nothing leaves the machine.
 */
import * as http from "http";
import type { AddressInfo } from "net";

/** A registry repository's tags and how the fixture serves them. */
export interface FixtureRepository {
    readonly tags: readonly string[];
    /** Tags per page; a `Link: <…>; rel="next"` header leads to the next page. Default: all in one. */
    readonly pageSize?: number;
    /** Challenge with Basic instead of Bearer, as a registry that wants credentials does. */
    readonly basicOnly?: boolean;
}

/** What the server serves. */
export interface FixtureSources {
    /** URL path (e.g. `/helm/nginx/stable/index.yaml`) → body. */
    readonly files: Record<string, string>;
    /** Registry path prefix (e.g. `/ghcr`) → repository name → tags. */
    readonly registries: Record<string, Record<string, FixtureRepository>>;
    /** Paths that never answer (to test timeouts). */
    readonly hang?: readonly string[];
}

/** One request the server saw. */
export interface SeenRequest {
    readonly method: string;
    readonly path: string;
    readonly authorization?: string;
}

/** A running fixture server. */
export interface SourcesServer {
    /** `http://127.0.0.1:<port>`. */
    readonly origin: string;
    readonly requests: SeenRequest[];
    close(): Promise<void>;
}

/** Starts the server on 127.0.0.1, on a port the system picks. */
export async function startSourcesServer(sources: FixtureSources): Promise<SourcesServer> {
    const requests: SeenRequest[] = [];
    const hanging: http.ServerResponse[] = [];
    let origin = "";
    const server = http.createServer((req, res) => {
        const url = new URL(req.url ?? "/", origin);
        requests.push({ method: req.method ?? "GET", path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
        if (sources.hang?.includes(url.pathname)) {
            hanging.push(res);
            return;
        }
        const file = sources.files[url.pathname];
        if (file !== undefined) return send(res, 200, file, { "content-type": "application/x-yaml" });
        if (url.pathname.endsWith("/token")) return token(res, url);
        const m = /^(\/[^/]+)\/v2\/(.+)\/tags\/list$/.exec(url.pathname);
        if (m) return tags(req, res, url, m[1]!, m[2]!);
        send(res, 404, "not found");
    });

    function token(res: http.ServerResponse, url: URL): void {
        const scope = /^repository:(.+):pull$/.exec(url.searchParams.get("scope") ?? "");
        if (url.searchParams.get("service") !== "fixture-registry" || !scope) return send(res, 400, JSON.stringify({ errors: [{ code: "BAD_REQUEST" }] }));
        send(res, 200, JSON.stringify({ token: `anon:${scope[1]}` }), { "content-type": "application/json" });
    }

    function tags(req: http.IncomingMessage, res: http.ServerResponse, url: URL, prefix: string, name: string): void {
        const repo = sources.registries[prefix]?.[name];
        if (repo?.basicOnly) return send(res, 401, "{}", { "www-authenticate": 'Basic realm="fixture"' });
        if (req.headers.authorization !== `Bearer anon:${name}`) {
            const realm = `${origin}${prefix}/token`;
            return send(res, 401, JSON.stringify({ errors: [{ code: "UNAUTHORIZED" }] }), {
                "www-authenticate": `Bearer realm="${realm}",service="fixture-registry",scope="repository:${name}:pull"`,
            });
        }
        if (!repo) return send(res, 404, JSON.stringify({ errors: [{ code: "NAME_UNKNOWN" }] }));
        const size = repo.pageSize ?? repo.tags.length;
        const last = url.searchParams.get("last");
        const start = last === null ? 0 : repo.tags.indexOf(last) + 1;
        const page = repo.tags.slice(start, start + size);
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (start + size < repo.tags.length) headers.link = `<${prefix}/v2/${name}/tags/list?n=${size}&last=${encodeURIComponent(page[page.length - 1]!)}>; rel="next"`;
        send(res, 200, JSON.stringify({ name, tags: page }), headers);
    }

    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
        origin,
        requests,
        close: () =>
            new Promise<void>((resolve) => {
                for (const res of hanging) res.destroy();
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}

function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, headers);
    res.end(body);
}

/** A loopback address where nothing listens: a port the system handed out, then released. */
export async function unreachableOrigin(): Promise<string> {
    const s = http.createServer();
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    return `http://127.0.0.1:${port}`;
}
