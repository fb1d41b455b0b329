/**
 * A Kubernetes API and the fake clouds for the destroy drain's tests. The Kubernetes fake answers the
 * drain's `ClusterClient` directly or its REST calls over HTTP, pages its lists with a small page size,
 * and tells the cloud's controller when a LoadBalancer Service is deleted. AWS is moto
 * (test/aws-emulator/); DigitalOcean and Linode are fakes of their published APIs in their own modules,
 * re-exported here. Everything deleted is recorded, whoever deleted it.
 */
import type { ClusterClient, CrdRecord, LoadBalancerRecord, VolumeRecord } from "../../components/drain/records";
import type { FakeService } from "./fakeService";

type Tags = Record<string, string>;

/** Pages `items` from the position a token names; the token is the index of the next page's first item. */
function page<T>(items: readonly T[], token: string | undefined, size: number): { items: T[]; next?: string } {
    const start = token ? Number(token) : 0;
    const end = start + size;
    return { items: items.slice(start, end), ...(end < items.length ? { next: String(end) } : {}) };
}

// ---- Kubernetes -------------------------------------------------------------------------------------

/** A PersistentVolume as the fake stores it. */
export interface FakePv {
    name: string;
    /** Absent only in a PV object that omits it (the API server fills in `Retain`). */
    reclaimPolicy?: "Delete" | "Retain" | "Recycle";
    driver?: string;
    handle?: string;
    /** Set by a provisioner on the volumes it creates; absent on a PV written by hand. */
    provisionedBy?: string;
    claim?: string;
}

export type { FakeService } from "./fakeService";

/** A CustomResourceDefinition as the fake stores it. */
export interface FakeCrd {
    name: string;
    group: string;
    labels?: Tags;
    annotations?: Tags;
}

/** A cluster's API: PVs, Services and CRDs, in memory or over HTTP (the real Kubernetes client's paths). */
export class FakeKubernetes {
    readonly deletedServices: string[] = [];
    readonly deletedCrds: string[] = [];
    readonly retained: string[] = [];
    /** List calls answered, with the `continue` token each carried. */
    readonly lists: { path: string; token?: string }[] = [];
    /** The cluster's controllers: told when a Service is deleted (awaited when the drain's client deletes it). */
    onServiceDeleted: (s: FakeService) => void | Promise<void> = () => undefined;
    /** Fails every call, as an unreachable cluster does. */
    unreachable = false;

    constructor(
        public pvs: FakePv[] = [],
        public services: FakeService[] = [],
        public crds: FakeCrd[] = [],
        readonly pageSize = 2,
    ) {}

    private reachable(): void {
        if (this.unreachable) throw new Error("connect ECONNREFUSED 203.0.113.10:443");
    }

    private async deleteService(ref: string): Promise<void> {
        const svc = this.services.find((s) => `${s.namespace}/${s.name}` === ref);
        if (!svc) return;
        this.services = this.services.filter((s) => s !== svc);
        this.deletedServices.push(ref);
        await this.onServiceDeleted(svc);
    }

    /** The drain's {@link ClusterClient} over the fake, without HTTP. */
    client(): ClusterClient {
        const pvRecord = (p: FakePv): VolumeRecord => ({ pv: p.name, reclaimPolicy: p.reclaimPolicy ?? "Retain", driver: p.driver, handle: p.handle, provisionedBy: p.provisionedBy, claim: p.claim });
        const lbRecord = (s: FakeService): LoadBalancerRecord => ({ service: `${s.namespace}/${s.name}`, ips: s.ips ?? [], hostnames: s.hostnames ?? [], annotations: s.annotations ?? {} });
        const crdRecord = (c: FakeCrd): CrdRecord => ({ name: c.name, group: c.group, labels: c.labels ?? {}, annotations: c.annotations ?? {} });
        return {
            persistentVolumes: async () => (this.reachable(), this.pvs.map(pvRecord)),
            loadBalancerServices: async () => (this.reachable(), this.services.filter((s) => s.type === "LoadBalancer").map(lbRecord)),
            deleteService: async (ref) => {
                this.reachable();
                await this.deleteService(ref);
            },
            customResourceDefinitions: async () => (this.reachable(), this.crds.map(crdRecord)),
            deleteCustomResourceDefinition: async (name) => {
                this.reachable();
                this.crds = this.crds.filter((c) => c.name !== name);
                this.deletedCrds.push(name);
            },
            retainPersistentVolume: async (name) => {
                this.reachable();
                const pv = this.pvs.find((p) => p.name === name);
                if (pv) pv.reclaimPolicy = "Retain";
                this.retained.push(name);
            },
        };
    }

    /** Answers one request of the Kubernetes REST API as the real client makes it. */
    handle(method: string, url: string, body: string): { status: number; body: unknown } {
        const u = new URL(url, "http://k8s");
        const list = (kind: string, apiVersion: string, objects: unknown[]) => {
            const limit = Number(u.searchParams.get("limit") ?? "0") || objects.length || 1;
            const token = u.searchParams.get("continue") ?? undefined;
            this.lists.push({ path: u.pathname, token });
            const p = page(objects, token, Math.min(limit, this.pageSize));
            return { status: 200, body: { kind, apiVersion, metadata: { resourceVersion: "1", ...(p.next ? { continue: p.next } : {}) }, items: p.items } };
        };
        if (method === "GET" && u.pathname === "/api/v1/persistentvolumes") {
            return list("PersistentVolumeList", "v1", this.pvs.map(pvObject));
        }
        if (method === "GET" && u.pathname === "/api/v1/services") return list("ServiceList", "v1", this.services.map(serviceObject));
        if (method === "GET" && u.pathname === "/apis/apiextensions.k8s.io/v1/customresourcedefinitions") {
            return list("CustomResourceDefinitionList", "apiextensions.k8s.io/v1", this.crds.map(crdObject));
        }
        let m = /^\/api\/v1\/namespaces\/([^/]+)\/services\/([^/]+)$/.exec(u.pathname);
        if (method === "DELETE" && m) {
            void this.deleteService(`${m[1]}/${m[2]}`);
            return { status: 200, body: { kind: "Status", apiVersion: "v1", status: "Success" } };
        }
        m = /^\/apis\/apiextensions\.k8s\.io\/v1\/customresourcedefinitions\/([^/]+)$/.exec(u.pathname);
        if (method === "DELETE" && m) {
            this.crds = this.crds.filter((c) => c.name !== m![1]);
            this.deletedCrds.push(m[1]!);
            return { status: 200, body: { kind: "Status", apiVersion: "v1", status: "Success" } };
        }
        m = /^\/api\/v1\/persistentvolumes\/([^/]+)$/.exec(u.pathname);
        if (method === "PATCH" && m) {
            const pv = this.pvs.find((p) => p.name === m![1]);
            if (!pv) return { status: 404, body: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 } };
            const patch = JSON.parse(body) as { spec?: { persistentVolumeReclaimPolicy?: "Retain" | "Delete" } };
            if (patch.spec?.persistentVolumeReclaimPolicy) pv.reclaimPolicy = patch.spec.persistentVolumeReclaimPolicy;
            this.retained.push(pv.name);
            return { status: 200, body: pvObject(pv) };
        }
        return { status: 404, body: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", message: `${method} ${u.pathname}`, code: 404 } };
    }
}

function pvObject(p: FakePv) {
    const [namespace, name] = p.claim?.split("/") ?? [];
    return {
        apiVersion: "v1",
        kind: "PersistentVolume",
        metadata: { name: p.name, ...(p.provisionedBy ? { annotations: { "pv.kubernetes.io/provisioned-by": p.provisionedBy } } : {}) },
        spec: {
            ...(p.reclaimPolicy ? { persistentVolumeReclaimPolicy: p.reclaimPolicy } : {}),
            capacity: { storage: "10Gi" },
            accessModes: ["ReadWriteOnce"],
            ...(p.driver ? { csi: { driver: p.driver, volumeHandle: p.handle } } : { hostPath: { path: "/data" } }),
            ...(p.claim ? { claimRef: { namespace, name } } : {}),
        },
        status: { phase: p.claim ? "Bound" : "Released" },
    };
}

function serviceObject(s: FakeService) {
    const ingress = [...(s.ips ?? []).map((ip) => ({ ip })), ...(s.hostnames ?? []).map((hostname) => ({ hostname }))];
    return {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: s.name, namespace: s.namespace, ...(s.annotations ? { annotations: s.annotations } : {}) },
        spec: { type: s.type, ports: [{ port: 80 }] },
        status: { loadBalancer: s.type === "LoadBalancer" ? { ingress } : {} },
    };
}

function crdObject(c: FakeCrd) {
    const plural = c.name.split(".")[0]!;
    return {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: { name: c.name, ...(c.labels ? { labels: c.labels } : {}), ...(c.annotations ? { annotations: c.annotations } : {}) },
        spec: { group: c.group, scope: "Namespaced", names: { plural, kind: plural, singular: plural }, versions: [{ name: "v1", served: true, storage: true }] },
    };
}

/** Helm's ownership marks for a CRD a release installed from its templates. */
export const helmMarks = (release: string, namespace: string) => ({
    labels: { "app.kubernetes.io/managed-by": "Helm" },
    annotations: { "meta.helm.sh/release-name": release, "meta.helm.sh/release-namespace": namespace },
});

// ---- AWS: moto, the AWS API emulator (test/aws-emulator/) -----------------------------------------------

export { STUCK_CONTROLLER } from "./stuckController";

// ---- DigitalOcean and Linode: their own modules, which follow the published APIs' behaviour -------------

export { FakeDigitalOcean } from "./fakeDigitalOcean";
export type { FakeDoLb, FakeDoVolume } from "./fakeDigitalOcean";
export { FakeLinode } from "./fakeLinode";
export type { FakeLinodeNb, FakeLinodeVolume } from "./fakeLinode";

/** A clock the drain's sleeps advance, so minutes pass instantly. */
export function fakeClock() {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}
