/**
 * The sources `mara outdated` reads, against a server on the loopback address: Helm repository indexes,
 * registry tag lists behind the anonymous token dance, pages, endpoint overrides, and every way a source
 * fails (refused, too slow, missing, private, not what it should be), each naming the URL.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchIndex, fetchOciChartVersions, readIndex } from "../../cli/outdated/helmIndex";
import { HttpSettings, parseEndpoints, rewriteUrl, SourceError } from "../../cli/outdated/http";
import { displayName, parseImageRef } from "../../cli/outdated/imageRef";
import { listTags, nextPage, parseChallenge } from "../../cli/outdated/registry";
import { SourcesServer, startSourcesServer, unreachableOrigin } from "./support/sourcesServer";

const FIXTURE_INDEX = fs.readFileSync(path.join(__dirname, "..", "fixtures", "outdated", "index.yaml"), "utf8");

let server: SourcesServer;
let settings: HttpSettings;

beforeAll(async () => {
    server = await startSourcesServer({
        files: { "/helm/example/stable/index.yaml": FIXTURE_INDEX, "/helm/broken/index.yaml": "entries: [unclosed", "/helm/notindex/index.yaml": "apiVersion: v1\n" },
        registries: {
            "/reg": {
                "team/app": { tags: ["1.0.0", "1.1.0", "latest"] },
                "team/paged": { tags: ["1.0.0", "1.0.1", "1.0.2", "1.1.0", "2.0.0"], pageSize: 2 },
                "team/private": { tags: ["1.0.0"], basicOnly: true },
            },
            "/hub": { "library/postgres": { tags: ["16.4", "17.0"] } },
            "/oci": { "charts/demo": { tags: ["1.0.0", "1.0.1_build.7"] } },
        },
        hang: ["/slow/index.yaml"],
    });
    settings = {
        timeoutMs: 5000,
        maxBytes: 1024 * 1024,
        endpoints: parseEndpoints(
            `charts.example.com=${server.origin}/helm/example, broken.example.com=${server.origin}/helm/broken, notindex.example.com=${server.origin}/helm/notindex/,` +
                `slow.example.com=${server.origin}/slow, registry.example.com=${server.origin}/reg, docker.io=${server.origin}/hub, oci.example.com=${server.origin}/oci`,
        ),
    };
});
afterAll(() => server.close());

/** The SourceError a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<SourceError> {
    const err = await p.then(
        () => undefined,
        (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SourceError);
    return err as SourceError;
}

describe("Helm repository indexes", () => {
    it("reads every chart's versions as written (1.10 stays 1.10)", () => {
        const index = readIndex(FIXTURE_INDEX, "https://charts.example.com/index.yaml");
        expect(index.get("example-operator")).toEqual(["3.0.0-rc.1", "2.10.0", "2.9.3"]);
        expect(index.get("example-exporter")).toEqual(["1.10", "2.0"]);
        expect(index.get("empty-chart")).toEqual([]);
        expect(index.size).toBe(3);
    });

    it("downloads index.yaml under the repository URL, through an endpoint override with a path", async () => {
        const index = await fetchIndex("https://charts.example.com/stable", settings);
        expect(index.get("example-operator")).toHaveLength(3);
        expect(server.requests.some((r) => r.path === "/helm/example/stable/index.yaml")).toBe(true);
    });

    it("names the URL and the status when there is no index", async () => {
        const err = await failure(fetchIndex("https://charts.example.com/missing", settings));
        expect(err.url).toBe(`${server.origin}/helm/example/missing/index.yaml`);
        expect(err.message).toBe("no Helm repository index here: HTTP 404 Not Found");
    });

    it("says when the answer is not YAML, or YAML but not an index", async () => {
        expect((await failure(fetchIndex("https://broken.example.com", settings))).message).toMatch(/^index\.yaml is not valid YAML: /);
        expect((await failure(fetchIndex("https://notindex.example.com", settings))).message).toBe('not a Helm repository index: it has no "entries" map');
    });

    it("stops reading an answer larger than the limit", async () => {
        const err = await failure(fetchIndex("https://charts.example.com/stable", { ...settings, maxBytes: 1000 }));
        expect(err.message).toBe("the answer is larger than 1000 bytes, more than this command reads");
    });

    it("gives up on a source that does not answer within the timeout", async () => {
        // That source never answers: only the timeout can end the request, and the message says it did.
        const err = await failure(fetchIndex("https://slow.example.com", { ...settings, timeoutMs: 300 }));
        expect(err.message).toBe("no answer within 0.3 s (raise it with --timeout)");
    });

    it("reports a refused connection with the URL it tried", async () => {
        const dead = await unreachableOrigin();
        const err = await failure(fetchIndex("https://down.example.com/charts", { ...settings, endpoints: parseEndpoints(`down.example.com=${dead}`) }));
        expect(err.url).toBe(`${dead}/charts/index.yaml`);
        expect(err.message).toBe("connection refused (ECONNREFUSED)");
    });

    it("lists an OCI chart's versions from its tags, turning Helm's _ back into +", async () => {
        expect(await fetchOciChartVersions("oci://oci.example.com/charts", "demo", settings)).toEqual(["1.0.0", "1.0.1+build.7"]);
    });
});

describe("registry tag lists", () => {
    it("does the anonymous token dance: 401 with a Bearer challenge, a token from the realm, the request again", async () => {
        const before = server.requests.length;
        expect(await listTags({ registry: "registry.example.com", repository: "team/app" }, settings)).toEqual(["1.0.0", "1.1.0", "latest"]);
        const seen = server.requests.slice(before);
        expect(seen.map((r) => [r.path, r.authorization])).toEqual([
            ["/reg/v2/team/app/tags/list", undefined],
            ["/reg/token?service=fixture-registry&scope=repository%3Ateam%2Fapp%3Apull", undefined],
            ["/reg/v2/team/app/tags/list", "Bearer anon:team/app"],
        ]);
    });

    it("follows Link rel=next pages to the end", async () => {
        expect(await listTags({ registry: "registry.example.com", repository: "team/paged" }, settings)).toEqual(["1.0.0", "1.0.1", "1.0.2", "1.1.0", "2.0.0"]);
    });

    it("applies an override written for docker.io to Docker Hub's API host, and finds one-word images under library/", async () => {
        const ref = parseImageRef("postgres:16.4");
        expect(ref).toEqual({ registry: "docker.io", repository: "library/postgres", tag: "16.4", digest: undefined });
        expect(displayName(ref)).toBe("postgres");
        expect(await listTags(ref, settings)).toEqual(["16.4", "17.0"]);
    });

    it("says a registry that only takes credentials cannot be checked anonymously", async () => {
        const err = await failure(listTags({ registry: "registry.example.com", repository: "team/private" }, settings));
        expect(err.message).toBe("the registry asks for credentials (basic authentication) and offers no anonymous access: HTTP 401");
        expect(err.url).toBe(`${server.origin}/reg/v2/team/private/tags/list`);
    });

    it("says a repository does not exist", async () => {
        const err = await failure(listTags({ registry: "registry.example.com", repository: "team/nope" }, settings));
        expect(err.message).toBe("no such repository in this registry, or it is private: HTTP 404");
    });
});

describe("image references", () => {
    it.each([
        ["nginx/nginx-ingress:5.5.4", { registry: "docker.io", repository: "nginx/nginx-ingress", tag: "5.5.4" }, "nginx/nginx-ingress"],
        ["ghcr.io/nginxinc/bos-frontend:v1.3.0", { registry: "ghcr.io", repository: "nginxinc/bos-frontend", tag: "v1.3.0" }, "ghcr.io/nginxinc/bos-frontend"],
        ["registry.example.com:5000/team/app:1.0", { registry: "registry.example.com:5000", repository: "team/app", tag: "1.0" }, "registry.example.com:5000/team/app"],
        ["localhost/app", { registry: "localhost", repository: "app", tag: undefined }, "localhost/app"],
        ["nginx/nginx-ingress@sha256:abc", { registry: "docker.io", repository: "nginx/nginx-ingress", digest: "sha256:abc" }, "nginx/nginx-ingress"],
        // A first component without a dot or port is a Docker Hub namespace, not a host.
        ["nginxinc/app:1", { registry: "docker.io", repository: "nginxinc/app", tag: "1" }, "nginxinc/app"],
    ])("%s", (reference, expected, display) => {
        const ref = parseImageRef(reference);
        expect(ref).toMatchObject(expected);
        expect(displayName(ref)).toBe(display);
    });
});

describe("headers and overrides", () => {
    it("reads WWW-Authenticate challenges", () => {
        expect(parseChallenge('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:nginx/nginx-ingress:pull"')).toEqual({
            scheme: "bearer",
            params: { realm: "https://auth.docker.io/token", service: "registry.docker.io", scope: "repository:nginx/nginx-ingress:pull" },
        });
        expect(parseChallenge('Basic realm="x"')?.scheme).toBe("basic");
        expect(parseChallenge(null)).toBeUndefined();
    });

    it("finds the next page in a Link header, relative to the page", () => {
        expect(nextPage('</v2/a/tags/list?last=x&n=2>; rel="next"', "https://ghcr.io/v2/a/tags/list")).toBe("https://ghcr.io/v2/a/tags/list?last=x&n=2");
        expect(nextPage('<https://x.io/p2>; rel="prev", <https://x.io/p3>; rel=next', "https://x.io/p1")).toBe("https://x.io/p3");
        expect(nextPage('<https://x.io/p0>; rel="prev"', "https://x.io/p1")).toBeUndefined();
        expect(nextPage(null, "https://x.io/p1")).toBeUndefined();
    });

    it("rewrites only the overridden host, keeping path and query", () => {
        const endpoints = parseEndpoints("ghcr.io=http://127.0.0.1:5000/mirror/");
        expect(rewriteUrl("https://ghcr.io/v2/a/tags/list?n=5", endpoints)).toBe("http://127.0.0.1:5000/mirror/v2/a/tags/list?n=5");
        expect(rewriteUrl("https://ghcr.io.example.com/v2/a", endpoints)).toBe("https://ghcr.io.example.com/v2/a");
        expect(rewriteUrl("https://docker.io/v2/a", endpoints)).toBe("https://docker.io/v2/a");
    });

    it("rejects a malformed MARA_OUTDATED_ENDPOINTS entry, naming it", () => {
        expect(() => parseEndpoints("ghcr.io")).toThrow('MARA_OUTDATED_ENDPOINTS entry "ghcr.io" is not host=base-url');
        expect(() => parseEndpoints("ghcr.io=ftp://x")).toThrow('entry "ghcr.io=ftp://x"');
        expect(() => parseEndpoints("=http://x")).toThrow('entry "=http://x"');
        expect(parseEndpoints(undefined).size).toBe(0);
        expect(parseEndpoints(" , ").size).toBe(0);
    });
});
