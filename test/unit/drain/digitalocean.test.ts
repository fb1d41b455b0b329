/**
 * The DigitalOcean drain among neighbours, through its real HTTP client against a fake API v2 that
 * answers as DigitalOcean's reference documents (test/support/fakeDigitalOcean.ts has the table: pages,
 * errors, 429 with Retry-After, 5xx, 404 on a delete of what is already gone): it deletes exactly what
 * the cluster's records name at the first look and the cloud confirms with this cluster's ID, follows
 * `links.pages.next` to the last page, and gets through the API's transient faults.
 */
import { describe, expect, it } from "vitest";
import { digitalOceanDrainApi, digitalOceanHttpClient, DO_CSI_DRIVER, DO_LB_ID_ANNOTATION } from "../../../components/drain/digitalocean";
import { DrainProps, runDrain } from "../../../components/drain/run";
import { FakeDigitalOcean, fakeClock, FakeKubernetes, FakePv, STUCK_CONTROLLER } from "../../support/fakeClouds";

const CLUSTER = "4f1e7a52-0000-4c1a-9d6e-0123456789ab";
const OTHER = "4f1e7a52-0000-4c1a-9d6e-ba9876543210";
const TAG = `k8s:${CLUSTER}`;
const PV = (n: number) => `pvc-d000000${n}-aaaa-4bbb-8ccc-00000000000${n}`;
const provisioned = (name: string, handle: string, extra: Partial<FakePv> = {}): FakePv => ({ name, reclaimPolicy: "Delete", driver: DO_CSI_DRIVER, handle, provisionedBy: DO_CSI_DRIVER, ...extra });

function neighbourhood() {
    const k8s = new FakeKubernetes(
        [
            provisioned(PV(1), "vol-1"),
            provisioned(PV(2), "vol-retain", { reclaimPolicy: "Retain" }),
            provisioned("imported-data", "vol-imported", { provisionedBy: undefined }),
            provisioned(PV(3), "vol-renamed"),
            provisioned(PV(4), "vol-gone"),
        ],
        [
            { namespace: "shop", name: "api", type: "LoadBalancer", ips: ["203.0.113.5"], annotations: { [DO_LB_ID_ANNOTATION]: "lb-ours", [STUCK_CONTROLLER]: "true" } },
            { namespace: "blog", name: "web", type: "LoadBalancer", ips: ["203.0.113.6"], annotations: { [DO_LB_ID_ANNOTATION]: "lb-ours-2" } },
            { namespace: "team", name: "adopted", type: "LoadBalancer", ips: ["203.0.113.9"] },
            { namespace: "team", name: "handed-over", type: "LoadBalancer", ips: ["203.0.113.10"], annotations: { "service.kubernetes.io/do-loadbalancer-disown": "true" } },
        ],
    );
    const doApi = new FakeDigitalOcean(
        [
            // Another cluster's load balancer that took our name.
            { id: "lb-samename", name: "mara-dev-ingress", ip: "198.51.100.1", tags: [`k8s:${OTHER}`] },
            { id: "lb-prefix", name: "mara-dev-2-ingress", ip: "198.51.100.2", tags: [`k8s:${OTHER}`] },
            { id: "lb-shared", name: "shared", ip: "198.51.100.3", tags: ["shared"] },
            // Named by a Service's status, but not tagged for this cluster: not proven made by its controller.
            { id: "lb-adopted", name: "made-by-hand", ip: "203.0.113.9", tags: [] },
            { id: "lb-ours-2", name: "a-web", ip: "203.0.113.6", tags: [TAG] },
            // Made by this cluster's controller, but its Service disowns it: being handed over elsewhere.
            { id: "lb-disowned", name: "a-handed-over", ip: "203.0.113.10", tags: [TAG] },
            { id: "lb-ours", name: "a-api", ip: "203.0.113.5", tags: [TAG] },
        ],
        [
            { id: "vol-1", name: PV(1), tags: [TAG], dropletIds: [] },
            { id: "vol-retain", name: PV(2), tags: [TAG], dropletIds: [] },
            // The CSI driver tags volumes it attaches: an imported volume carries our tag too.
            { id: "vol-imported", name: "old-data", tags: [TAG], dropletIds: [] },
            { id: "vol-renamed", name: "not-the-pv", tags: [TAG], dropletIds: [] },
            { id: "vol-earlier", name: "pvc-earlier", tags: [TAG], dropletIds: [] },
            { id: "vol-other", name: "pvc-other", tags: [`k8s:${OTHER}`], dropletIds: [] },
        ],
    );
    k8s.onServiceDeleted = (s) => doApi.serviceDeleted(s);
    return { k8s, doApi };
}

const PROPS: DrainProps = { cloud: "digitalocean", clusterName: "mara-dev", clusterId: CLUSTER, token: "do-token", kubeconfig: "fake", removeCrds: false, retainVolumes: false, timeoutMinutes: 15 };

async function destroy(world: ReturnType<typeof neighbourhood>, props: Partial<DrainProps> = {}) {
    const log: string[] = [];
    const report = await runDrain(
        { ...PROPS, ...props },
        (m) => log.push(m),
        {
            cluster: () => world.k8s.client(),
            cloud: (q, records) => digitalOceanDrainApi(digitalOceanHttpClient(q.token!, world.doApi.fetch), { clusterName: q.clusterName, clusterId: q.clusterId!, retainVolumes: q.retainVolumes }, records),
        },
        { ...fakeClock(), graceMs: 120_000, pollMs: 15_000 },
    );
    return { report, log };
}

describe("DigitalOcean drain among neighbours", () => {
    it("deletes exactly the load balancers and Delete volumes proven this cluster's", async () => {
        const world = neighbourhood();
        const { report } = await destroy(world);
        expect([...world.doApi.deleted].sort()).toEqual(["lb-ours", "lb-ours-2", "vol-1"]);
        expect(report!.deleted.map((r) => r.id).sort()).toEqual(["lb-ours", "vol-1"]);
        expect(report!.kept.map((k) => `${k.kind} ${k.id}: ${k.reason}`).sort()).toEqual([
            `load balancer lb-adopted: not tagged ${TAG}, so not proven made by this cluster's controller`,
            "load balancer lb-disowned: the Service disowns it (service.kubernetes.io/do-loadbalancer-disown)",
            `volume vol-imported: imported: the PersistentVolume was not provisioned by ${DO_CSI_DRIVER} in this cluster`,
            `volume vol-renamed: not named ${PV(3)} and tagged ${TAG}, so not proven the volume this cluster provisioned`,
            "volume vol-retain: its PersistentVolume's reclaim policy is Retain",
        ]);
    });

    it("follows links.pages.next: our load balancer is on the last page", async () => {
        const world = neighbourhood();
        await destroy(world);
        expect(world.doApi.requests).toContain("GET /v2/load_balancers?page=4&per_page=2");
        expect(world.doApi.requests.every((r) => !r.startsWith("GET /v2/volumes?"))).toBe(true);
    });

    it("waits for an attached volume instead of deleting it", async () => {
        const world = neighbourhood();
        world.doApi.volumes.find((v) => v.id === "vol-1")!.dropletIds = [42];
        await expect(destroy(world, { timeoutMinutes: 5 })).rejects.toThrow(/still exist after 5 min: volume pvc-d0000001-aaaa-4bbb-8ccc-000000000001 \(vol-1\)/);
        expect(world.doApi.deleted).not.toContain("vol-1");
    });

    it("keeps every volume when mara:retainVolumes is set", async () => {
        const world = neighbourhood();
        await destroy(world, { retainVolumes: true });
        expect(world.doApi.deleted.filter((id) => id.startsWith("vol"))).toEqual([]);
    });

    it("never sends the token anywhere but DigitalOcean's API", async () => {
        const calls: string[] = [];
        const client = digitalOceanHttpClient("do-token", async (url) => {
            calls.push(url instanceof Request ? url.url : String(url));
            return new Response(JSON.stringify({ load_balancers: [], links: { pages: { next: "https://evil.example.com/v2/load_balancers?page=2" } } }), { status: 200 });
        });
        expect(await client.loadBalancers()).toEqual([]);
        expect(calls).toEqual(["https://api.digitalocean.com/v2/load_balancers?page=1&per_page=200"]);
    });

    it("never considers a load balancer that receives a released address during the drain", async () => {
        const world = neighbourhood();
        world.k8s.onServiceDeleted = (s) => {
            world.doApi.serviceDeleted(s);
            // Our released 203.0.113.6 goes to a load balancer made later, even one tagged for this cluster: no Service named it at the first look.
            if (s.name === "web") world.doApi.lbs.push({ id: "lb-late", name: "late", ip: "203.0.113.6", tags: [TAG] });
        };
        const { report } = await destroy(world);
        expect(world.doApi.lbs.map((l) => l.id)).toContain("lb-late");
        expect(report!.kept.some((k) => k.id === "lb-late")).toBe(false);
    });
});

describe("DigitalOcean drain under the API's faults", () => {
    it("waits the Retry-After of a 429, retries a 503 with backoff, and finishes", async () => {
        const world = neighbourhood();
        world.doApi.faults.add("GET", /^\/v2\/load_balancers$/, 1, 503);
        world.doApi.faults.add("GET", /^\/v2\/volumes\/vol-1$/, 1, 429, { "retry-after": "45" });
        const { report, log } = await destroy(world);
        expect(world.doApi.faults.pending()).toBe(0);
        expect(log.filter((m) => m.includes("could not list its resources"))).toEqual([
            "DigitalOcean cluster mara-dev: could not list its resources (DigitalOcean API GET /load_balancers?page=1&per_page=200: 503: service_unavailable: The service is temporarily unavailable); trying again in 1 s",
            "DigitalOcean cluster mara-dev: could not list its resources (DigitalOcean API GET /volumes/vol-1: 429: too_many_requests: API Rate limit exceeded.); trying again in 45 s",
        ]);
        expect(report!.deleted.map((r) => r.id).sort()).toEqual(["lb-ours", "vol-1"]);
    });

    it("counts a 404 on deleting a load balancer another hand deleted first as done", async () => {
        const world = neighbourhood();
        const answer = world.doApi.answer.bind(world.doApi);
        world.doApi.answer = (method, url, authorization) => {
            if (method === "DELETE" && url.endsWith("/v2/load_balancers/lb-ours")) world.doApi.lbs = world.doApi.lbs.filter((l) => l.id !== "lb-ours");
            return answer(method, url, authorization);
        };
        const { log } = await destroy(world);
        expect(world.doApi.requests).toContain("DELETE /v2/load_balancers/lb-ours");
        expect(log.some((m) => m.includes("could not delete"))).toBe(false);
        expect(world.doApi.deleted).toContain("vol-1");
    });

    it("fails at once on a refused token, deleting nothing", async () => {
        const world = neighbourhood();
        await expect(destroy(world, { token: "expired" })).rejects.toThrow(
            "DigitalOcean cluster mara-dev: the cloud's API refused a list call, which no retry can fix: DigitalOcean API GET /load_balancers?page=1&per_page=200: 401: unauthorized: Unable to authenticate you",
        );
        expect(world.doApi.deleted).toEqual([]);
        expect(world.k8s.deletedServices).toEqual([]);
    });
});
