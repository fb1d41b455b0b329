/**
 * `mara outdated` against sources that misbehave (support/hostileServer.ts): an answer dripped one byte at a time
 * (the request's deadline counts to the last byte), a registry whose every page comes just in time and links to
 * another, for ever (the command's own bound, 4 times --timeout, ends it), a redirect loop, a tag list that is not
 * JSON, an error status. Each source fails with its URL and its own words; the command ends with exit 5.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BOUND_RAN_OUT, httpGet, HttpSettings, RUN_BOUND_FACTOR, SourceError } from "../../cli/outdated/http";
import { defaultPinSettings, pinsOf } from "../../cli/outdated/pins";
import { listTags } from "../../cli/outdated/registry";
import { hostileServer, HostileServer } from "../support/hostileServer";
import { JS_TEXT, maraProcess } from "./support/maraProcess";

let server: HostileServer | undefined;
afterEach(async () => {
    await server?.close();
    server = undefined;
});

const settings = (over: Partial<HttpSettings> = {}): HttpSettings => ({ timeoutMs: 5000, maxBytes: 1024 * 1024, endpoints: new Map(), ...over });

async function failure(p: Promise<unknown>): Promise<SourceError> {
    const e = await p.then(
        () => undefined,
        (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(SourceError);
    expect((e as Error).message).not.toMatch(JS_TEXT);
    return e as SourceError;
}

describe("each request", () => {
    it("an answer dripped one byte at a time: ended at the request's deadline, not kept alive by each byte", async () => {
        server = await hostileServer(() => ({ kind: "drip", intervalMs: 20 }));
        const started = Date.now();
        const e = await failure(httpGet(`${server.url}/index.yaml`, settings({ timeoutMs: 500 })));
        expect(e.message).toBe("no answer within 0.5 s (raise it with --timeout)");
        expect(Date.now() - started).toBeLessThan(500 * 20);
    });

    it("a redirect loop: stopped, and called one", async () => {
        server = await hostileServer(() => ({ kind: "redirectLoop" }));
        const e = await failure(httpGet(`${server.url}/index.yaml`, settings()));
        expect(e.message).toBe("more than 20 redirects, one after another (a redirect loop?); not followed further");
        expect(server.requests.length).toBeLessThanOrEqual(21);
    });

    it("a tag list that is not JSON: says so, and how it begins", async () => {
        server = await hostileServer(() => ({ kind: "text", body: "<html><body>rate limited</body></html>" }));
        const e = await failure(listTags({ registry: "registry.example.com", repository: "team/app" }, settings({ endpoints: new Map([["registry.example.com", server.url]]) })));
        expect(e.message).toBe('the answer is not JSON (it begins "<html><body>rate limited</body></html>"), so not a tag list');
        expect(e.url).toBe(`${server.url}/v2/team/app/tags/list`);
    });

    it("an error status: the status, with the URL", async () => {
        server = await hostileServer(() => ({ kind: "json", status: 503, body: { errors: [] } }));
        const e = await failure(listTags({ registry: "registry.example.com", repository: "team/app" }, settings({ endpoints: new Map([["registry.example.com", server.url]]) })));
        expect(e.message).toBe("listing tags failed: HTTP 503 Service Unavailable");
    });
});

describe("the whole command", () => {
    it("a registry whose pages each come just in time, linking on for ever: the command's own bound ends it", async () => {
        let page = 0;
        server = await hostileServer(() => ({ kind: "json", delayMs: 300, body: { tags: [`1.0.${page}`] }, headers: { link: `</v2/team/app/tags/list?last=${++page}>; rel="next"` } }));
        const started = Date.now();
        const e = await failure(listTags({ registry: "registry.example.com", repository: "team/app" }, settings({ timeoutMs: 1000, deadline: Date.now() + 2000, endpoints: new Map([["registry.example.com", server.url]]) })));
        expect(e.message).toBe(BOUND_RAN_OUT);
        expect(Date.now() - started).toBeLessThan(2000 * 10);
        expect(page).toBeLessThan(200);
    });

    it("every source dripping, as users run it: ends within several times its bound, exit 5", async () => {
        server = await hostileServer(() => ({ kind: "drip", intervalMs: 100 }));
        const hosts = new Set<string>();
        for (const pin of pinsOf(defaultPinSettings())) {
            if (pin.source.type === "helm-index" || pin.source.type === "oci-chart") hosts.add(new URL(pin.source.repositoryUrl).host);
            if (pin.source.type === "registry") hosts.add(pin.source.registry);
        }
        const env = { ...process.env, MARA_OUTDATED_ENDPOINTS: [...hosts].map((h) => `${h}=${server!.url}`).join(",") };
        const timeout = 2;
        const bound = timeout * 1000 * RUN_BOUND_FACTOR;
        const run = await maraProcess(["outdated", "--timeout", String(timeout)], { env, killAfterMs: bound * 10 + 60_000 });
        expect(run.killed).toBe(false);
        expect(run.code, run.stderr).toBe(5);
        expect(run.stderr).toMatch(/no answer within 2 s|ran out before this source answered/);
        expect(`${run.stdout}${run.stderr}`).not.toMatch(JS_TEXT);
        expect(run.ms).toBeLessThan(bound * 3 + 15_000);
    }, 180_000);
});
