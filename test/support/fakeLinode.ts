/**
 * A Linode account behind API v4, answering the way the published API does for the calls the drain
 * makes. Tests reach it with the real @linode/api-v4 over loopback HTTP ({@link serveLinode}); the
 * dynamic-provider host's shim reaches it by function name ({@link FakeLinode.call}), with the same
 * answers turned into the errors axios raises.
 *
 * | behaviour | Linode's reference |
 * |---|---|
 * | lists page by `page` and `page_size` (25 to 500, default 100); the answer has `data`, `page`, `pages`, `results` | [Pagination](https://techdocs.akamai.com/linode-api/reference/pagination) |
 * | errors are JSON `{ errors: [{ reason, field? }] }` with the HTTP status | [Errors](https://techdocs.akamai.com/linode-api/reference/errors) |
 * | `429` once a rate limit is reached, with `Retry-After` and the `X-RateLimit-*` headers | [Rate limits](https://techdocs.akamai.com/linode-api/reference/rate-limits) |
 * | a 5xx now and then (`500`, `502`, `503`) | [Errors](https://techdocs.akamai.com/linode-api/reference/errors) |
 * | `DELETE` answers `200 {}`; an object already deleted answers `404 Not found` | [Delete a NodeBalancer](https://techdocs.akamai.com/linode-api/reference/delete-node-balancer), [Delete a volume](https://techdocs.akamai.com/linode-api/reference/delete-volume) |
 * | deleting an attached volume is refused (`400`) | [Delete a volume](https://techdocs.akamai.com/linode-api/reference/delete-volume) |
 *
 * It plays Linode's cloud controller too: a deleted Service's NodeBalancer, found by the address in the
 * Service's status, is deleted unless the Service asks to preserve it or the test says the controller is stuck.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import type { LinodeApi } from "../../components/drain/linode";
import type { FakeService } from "./fakeService";
import { HttpFaults } from "./httpFaults";
import { STUCK_CONTROLLER } from "./stuckController";

export interface FakeLinodeNb {
    id: number;
    label: string;
    ipv4: string;
    hostname: string;
    tags: string[];
}
export interface FakeLinodeVolume {
    id: number;
    label: string;
    tags: string[];
    linodeId: number | null;
}

/** One answer of the fake API. */
export interface LinodeAnswer {
    status: number;
    headers?: Record<string, string>;
    body: unknown;
}

const API_ROOT = "https://api.linode.com/v4";
const errors = (status: number, reason: string, headers: Record<string, string> = {}): LinodeAnswer => ({ status, headers, body: { errors: [{ reason }] } });
const REASONS: Record<number, string> = { 401: "Invalid Token", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable" };

/** A Linode account. */
export class FakeLinode {
    readonly deleted: string[] = [];
    /** Every list call, with its page. */
    readonly listed: { call: string; page: number }[] = [];
    /** Scripted 429s and 5xx (`faults.add("GET", /^\/v4\/nodebalancers$/, 1, 429, { "retry-after": "30" })`). */
    readonly faults = new HttpFaults();
    /** Runs before each request is answered: another party acting between two of the drain's calls. */
    beforeAnswer: (method: string, path: string) => void = () => undefined;

    constructor(
        public nbs: FakeLinodeNb[] = [],
        public volumes: FakeLinodeVolume[] = [],
        readonly pageSize = 2,
    ) {}

    /** Linode's controller deletes a deleted Service's NodeBalancer, found by the address in its status. */
    serviceDeleted(s: FakeService): void {
        if (s.annotations?.[STUCK_CONTROLLER] || s.annotations?.["service.beta.kubernetes.io/linode-loadbalancer-preserve"] === "true") return;
        for (const nb of this.nbs.filter((n) => s.ips?.includes(n.ipv4))) {
            this.nbs = this.nbs.filter((n) => n !== nb);
            this.deleted.push(`nb:${nb.id}`);
        }
    }

    detachAll(): void {
        for (const v of this.volumes) v.linodeId = null;
    }

    /** Answers one API request (`url` on api.linode.com or any host: only the path counts). */
    answer(method: string, url: string, authorization: string | undefined): LinodeAnswer {
        const u = new URL(url);
        if (authorization !== "Bearer linode-token") return errors(401, "Invalid Token");
        this.beforeAnswer(method, u.pathname);
        const fault = this.faults.take(method, u.pathname);
        if (fault) {
            const limits: Record<string, string> = fault.status === 429 ? { "x-ratelimit-limit": "200", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1767225600" } : {};
            return errors(fault.status, REASONS[fault.status] ?? `HTTP ${fault.status}`, { ...limits, ...fault.headers });
        }
        if (method === "GET" && u.pathname === "/v4/nodebalancers") {
            const page = Number(u.searchParams.get("page") ?? "1");
            const requested = Number(u.searchParams.get("page_size") ?? "100");
            if (requested < 25 || requested > 500) return { status: 400, body: { errors: [{ reason: "Must be 25-500", field: "page_size" }] } };
            this.listed.push({ call: "getNodeBalancers", page });
            // The test's page size stands for an account with hundreds of NodeBalancers: a few span pages.
            const size = Math.min(requested, this.pageSize);
            return {
                status: 200,
                body: {
                    data: this.nbs.slice((page - 1) * size, page * size).map((n) => ({ id: n.id, label: n.label, ipv4: n.ipv4, hostname: n.hostname, tags: n.tags })),
                    page,
                    pages: Math.max(1, Math.ceil(this.nbs.length / size)),
                    results: this.nbs.length,
                },
            };
        }
        let m = /^\/v4\/volumes\/(\d+)$/.exec(u.pathname);
        if (m) {
            const v = this.volumes.find((x) => x.id === Number(m![1]));
            if (!v) return errors(404, "Not found");
            if (method === "GET") return { status: 200, body: { id: v.id, label: v.label, tags: v.tags, linode_id: v.linodeId } };
            if (method === "DELETE") {
                if (v.linodeId !== null) return errors(400, "Volume must be detached before it can be deleted.");
                this.volumes = this.volumes.filter((x) => x !== v);
                this.deleted.push(`vol:${v.id}`);
                return { status: 200, body: {} };
            }
        }
        m = /^\/v4\/nodebalancers\/(\d+)$/.exec(u.pathname);
        if (m && method === "DELETE") {
            if (!this.nbs.some((n) => n.id === Number(m![1]))) return errors(404, "Not found");
            this.nbs = this.nbs.filter((n) => n.id !== Number(m![1]));
            this.deleted.push(`nb:${m[1]}`);
            return { status: 200, body: {} };
        }
        return errors(404, "Not found");
    }

    /** The @linode/api-v4 call `name`, as the dynamic-provider host's shim forwards it: the same answers, failures thrown as axios does. */
    call(name: string, args: unknown[]): unknown {
        const request = (method: string, path: string) => {
            const r = this.answer(method, `${API_ROOT}${path}`, "Bearer linode-token");
            if (r.status >= 400) throw Object.assign(new Error(`Request failed with status code ${r.status}`), { response: { status: r.status, headers: r.headers ?? {}, data: r.body } });
            return r.body;
        };
        switch (name) {
            case "setToken":
                return undefined;
            case "getNodeBalancers": {
                const { page, page_size } = args[0] as { page: number; page_size: number };
                return request("GET", `/nodebalancers?page=${page}&page_size=${page_size}`);
            }
            case "getVolume":
                return request("GET", `/volumes/${String(args[0])}`);
            case "deleteNodeBalancer":
                return request("DELETE", `/nodebalancers/${String(args[0])}`);
            case "deleteVolume":
                return request("DELETE", `/volumes/${String(args[0])}`);
            default:
                throw new Error(`the fake Linode does not answer ${name}`);
        }
    }
}

/** The fake served on loopback, and the real @linode/api-v4 (its axios instance) pointed at it. */
export interface ServedLinode {
    readonly api: LinodeApi;
    close(): Promise<void>;
}

/**
 * Serves `linode` over HTTP on 127.0.0.1 and points the real @linode/api-v4 at it: an axios interceptor
 * rewrites the API's host to the server's, so requests, parameters and errors are the package's own.
 */
export async function serveLinode(linode: () => FakeLinode): Promise<ServedLinode> {
    const server = http.createServer((req, res) => {
        const r = linode().answer(req.method ?? "GET", `http://fake${req.url ?? "/"}`, req.headers.authorization);
        res.writeHead(r.status, { "content-type": "application/json", ...(r.headers ?? {}) });
        res.end(JSON.stringify(r.body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const api = require("@linode/api-v4") as LinodeApi & { baseRequest: { interceptors: { request: { use(f: (c: { url?: string }) => unknown): number; eject(id: number): void } } } };
    const id = api.baseRequest.interceptors.request.use((config) => ({ ...config, url: config.url?.replace(API_ROOT, base) }));
    api.setToken("linode-token");
    return {
        api,
        close: async () => {
            api.baseRequest.interceptors.request.eject(id);
            await new Promise<void>((resolve) => server.close(() => resolve()));
        },
    };
}
