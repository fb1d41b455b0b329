/**
 * A DigitalOcean account behind API v2, as `fetch` reaches it, answering the way the published API
 * does for the calls the drain makes:
 *
 * | behaviour | DigitalOcean's reference |
 * |---|---|
 * | lists page by `page` and `per_page` (at most 200); `links.pages` has `first`/`prev` and `next`/`last` URLs on the API's own host, `meta.total` the count | [Links & Pagination](https://docs.digitalocean.com/reference/api/digitalocean/#section/Introduction/Links-and-Pagination), [Meta](https://docs.digitalocean.com/reference/api/digitalocean/#section/Introduction/Meta) |
 * | errors are JSON `{ id, message, request_id }` with the HTTP status | [Responses](https://docs.digitalocean.com/reference/api/digitalocean/#section/Introduction/Responses) |
 * | `429 Too Many Requests` with `Retry-After` (seconds) and the `ratelimit-*` headers | [Rate Limit](https://docs.digitalocean.com/reference/api/digitalocean/#section/Introduction/Rate-Limit); [Retry-After on 429](https://docs.digitalocean.com/notes/2023/api-rate-limit) |
 * | a 5xx now and then (`500 server_error`, `503 service_unavailable`) | [Responses](https://docs.digitalocean.com/reference/api/digitalocean/#section/Introduction/Responses) |
 * | `DELETE` answers `204 No Content`; a load balancer or volume already deleted answers `404 not_found` | [Delete a Load Balancer](https://docs.digitalocean.com/reference/api/digitalocean/#operation/loadBalancers_delete), [Delete a Block Storage Volume](https://docs.digitalocean.com/reference/api/digitalocean/#operation/volumes_delete) |
 * | deleting an attached volume is refused (`409`) | [Delete a Block Storage Volume](https://docs.digitalocean.com/reference/api/digitalocean/#operation/volumes_delete) |
 *
 * The fake plays the account's other actors too: DigitalOcean's cloud controller deletes a deleted
 * Service's load balancer (found by the ID it recorded), unless the test says it is stuck.
 */
import type { FakeService } from "./fakeService";
import { HttpFaults } from "./httpFaults";
import { STUCK_CONTROLLER } from "./stuckController";
const API = "https://api.digitalocean.com";

export interface FakeDoLb {
    id: string;
    name: string;
    ip: string;
    tags: string[];
}
export interface FakeDoVolume {
    id: string;
    name: string;
    tags: string[];
    dropletIds: number[];
}

/** One answer of the fake API. */
export interface DoAnswer {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
}

const error = (status: number, id: string, message: string, headers: Record<string, string> = {}): DoAnswer => ({ status, headers, body: { id, message, request_id: "4d9d8375-3c56-4925-a3e7-eb137fed17e9" } });
const ERROR_IDS: Record<number, [string, string]> = {
    429: ["too_many_requests", "API Rate limit exceeded."],
    500: ["server_error", "Unexpected server-side error"],
    502: ["bad_gateway", "Bad gateway"],
    503: ["service_unavailable", "The service is temporarily unavailable"],
};

/** A DigitalOcean account behind API v2. */
export class FakeDigitalOcean {
    readonly deleted: string[] = [];
    /** Every request, method and path with query. */
    readonly requests: string[] = [];
    /** Scripted 429s and 5xx (`faults.add("GET", /^\/v2\/load_balancers$/, 1, 429, { "retry-after": "30" })`). */
    readonly faults = new HttpFaults();

    constructor(
        public lbs: FakeDoLb[] = [],
        public volumes: FakeDoVolume[] = [],
        readonly pageSize = 2,
    ) {}

    /** DigitalOcean's controller deletes a deleted Service's load balancer (found by the ID it recorded). */
    serviceDeleted(s: FakeService): void {
        if (s.annotations?.[STUCK_CONTROLLER]) return;
        const id = s.annotations?.["kubernetes.digitalocean.com/load-balancer-id"];
        if (id && this.lbs.some((l) => l.id === id)) {
            this.lbs = this.lbs.filter((l) => l.id !== id);
            this.deleted.push(id);
        }
    }

    detachAll(): void {
        for (const v of this.volumes) v.dropletIds = [];
    }

    /** Answers one API request. */
    answer(method: string, url: string, authorization: string | undefined): DoAnswer {
        const u = new URL(url);
        this.requests.push(`${method} ${u.pathname}${u.search}`);
        if (u.origin !== API) return { status: 599, body: { message: `wrong host ${u.origin}` } };
        if (authorization !== "Bearer do-token") return error(401, "unauthorized", "Unable to authenticate you");
        const fault = this.faults.take(method, u.pathname);
        if (fault) {
            const [id, message] = ERROR_IDS[fault.status] ?? ["error", `HTTP ${fault.status}`];
            const limits: Record<string, string> = fault.status === 429 ? { "ratelimit-limit": "5000", "ratelimit-remaining": "0", "ratelimit-reset": "1767225600" } : {};
            return error(fault.status, id, message, { ...limits, ...fault.headers });
        }
        if (method === "GET" && u.pathname === "/v2/load_balancers") {
            const perPage = Math.min(Number(u.searchParams.get("per_page") ?? "20"), 200, this.pageSize);
            const pageNo = Number(u.searchParams.get("page") ?? "1");
            const items = this.lbs.slice((pageNo - 1) * perPage, pageNo * perPage);
            const last = Math.max(1, Math.ceil(this.lbs.length / perPage));
            const link = (n: number) => `${API}/v2/load_balancers?page=${n}&per_page=${perPage}`;
            const pages = { ...(pageNo > 1 ? { first: link(1), prev: link(pageNo - 1) } : {}), ...(pageNo < last ? { next: link(pageNo + 1), last: link(last) } : {}) };
            return { status: 200, body: { load_balancers: items.map((l) => ({ id: l.id, name: l.name, ip: l.ip, tags: l.tags, status: "active" })), links: { pages }, meta: { total: this.lbs.length } } };
        }
        let m = /^\/v2\/volumes\/([^/]+)$/.exec(u.pathname);
        if (m) {
            const v = this.volumes.find((x) => x.id === m![1]);
            if (!v) return error(404, "not_found", "The resource you were accessing could not be found.");
            if (method === "GET") return { status: 200, body: { volume: { id: v.id, name: v.name, tags: v.tags, droplet_ids: v.dropletIds } } };
            if (method === "DELETE") {
                if (v.dropletIds.length) return error(409, "conflict", "Attached volumes cannot be deleted.");
                this.volumes = this.volumes.filter((x) => x !== v);
                this.deleted.push(v.id);
                return { status: 204 };
            }
        }
        m = /^\/v2\/load_balancers\/([^/]+)$/.exec(u.pathname);
        if (m && method === "DELETE") {
            if (!this.lbs.some((l) => l.id === m![1])) return error(404, "not_found", "The resource you were accessing could not be found.");
            this.lbs = this.lbs.filter((l) => l.id !== m![1]);
            this.deleted.push(m[1]!);
            return { status: 204 };
        }
        return error(404, "not_found", `${method} ${u.pathname}`);
    }

    /** A `fetch` that reaches this account. */
    readonly fetch: typeof fetch = async (input, init) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        const headers = new Headers(init?.headers);
        const r = this.answer(init?.method ?? "GET", url, headers.get("authorization") ?? undefined);
        return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status, headers: { "content-type": "application/json", ...(r.headers ?? {}) } });
    };
}
