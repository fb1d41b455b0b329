/**
 * In-memory clouds and a Kubernetes API for the destroy drain's tests. Each fake answers at the level
 * the drain's real client talks to (AWS SDK commands, DigitalOcean's HTTP API, @linode/api-v4 calls,
 * the Kubernetes REST API), pages its lists with a small page size so that resources land on later
 * pages, and plays the part of the cluster's controllers: a deleted LoadBalancer Service makes the
 * cloud delete its load balancer, whose network interfaces linger a few rounds; attached volumes detach
 * after a round. Everything deleted is recorded, whoever deleted it.
 */
import type { AwsCommands, AwsSdk } from "../../components/drain/awsSdk";
import type { ClusterClient, CrdRecord, LoadBalancerRecord, VolumeRecord } from "../../components/drain/records";

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

/** A Service as the fake stores it. */
export interface FakeService {
    namespace: string;
    name: string;
    type: "LoadBalancer" | "ClusterIP";
    ips?: string[];
    hostnames?: string[];
    annotations?: Tags;
}

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

// ---- AWS ------------------------------------------------------------------------------------------

export interface FakeAwsLb {
    arn: string;
    name: string;
    dnsName: string;
    vpcId: string;
    tags: Tags;
}
export interface FakeAwsClassicLb {
    name: string;
    dnsName: string;
    vpcId: string;
    tags: Tags;
}
export interface FakeAwsEni {
    id: string;
    description: string;
    status: "in-use" | "available";
    vpcId: string;
    /** Rounds left before AWS removes an interface whose load balancer is gone. */
    lingers?: number;
}
export interface FakeAwsGroup {
    id: string;
    name: string;
    vpcId: string;
    tags: Tags;
}
export interface FakeAwsVolume {
    id: string;
    state: "available" | "in-use";
    tags: Tags;
    /** Rounds until an attached volume detaches (its pod is gone); never, when unset. */
    detachIn?: number;
}

export { STUCK_CONTROLLER } from "./stuckController";
import { STUCK_CONTROLLER } from "./stuckController";

/** An AWS account and region, answering the SDK commands the drain sends. */
export class FakeAws {
    readonly deleted: string[] = [];
    /** Every command, with the pagination token it carried. */
    readonly calls: { command: string; token?: string }[] = [];

    constructor(
        public lbsV2: FakeAwsLb[] = [],
        public classic: FakeAwsClassicLb[] = [],
        public enis: FakeAwsEni[] = [],
        public groups: FakeAwsGroup[] = [],
        public volumes: FakeAwsVolume[] = [],
        readonly pageSize = 2,
    ) {}

    /** The cloud controller's part: a deleted Service's load balancer goes, its interfaces linger. */
    serviceDeleted(s: FakeService): void {
        if (s.annotations?.[STUCK_CONTROLLER]) return;
        // The in-tree controller manages only what it tagged as owned.
        const managed = (tags: Tags) => Object.entries(tags).some(([k, v]) => k.startsWith("kubernetes.io/cluster/") && v === "owned");
        for (const lb of this.lbsV2.filter((l) => s.hostnames?.includes(l.dnsName) && managed(l.tags))) this.removeLbV2(lb.arn);
        for (const lb of this.classic.filter((l) => s.hostnames?.includes(l.dnsName) && managed(l.tags))) this.removeClassic(lb.name);
    }

    private removeLbV2(arn: string): void {
        const lb = this.lbsV2.find((l) => l.arn === arn);
        if (!lb) return;
        this.lbsV2 = this.lbsV2.filter((l) => l !== lb);
        this.deleted.push(arn);
        for (const e of this.enis.filter((x) => x.description.includes(`/${lb.name}/`))) e.lingers = 2;
    }

    private removeClassic(name: string): void {
        if (!this.classic.some((l) => l.name === name)) return;
        this.classic = this.classic.filter((l) => l.name !== name);
        this.deleted.push(`classic:${name}`);
        for (const e of this.enis.filter((x) => x.description === `ELB ${name}`)) e.lingers = 2;
    }

    /** A round passes: lingering interfaces count down, attached volumes of deleted pods detach. */
    private tick(): void {
        for (const e of this.enis) if (e.lingers !== undefined) e.lingers--;
        this.enis = this.enis.filter((e) => e.lingers === undefined || e.lingers > 0);
        for (const v of this.volumes.filter((x) => x.detachIn !== undefined)) {
            if (--v.detachIn! <= 0) {
                v.state = "available";
                delete v.detachIn;
            }
        }
    }

    detachAll(): void {
        for (const v of this.volumes) v.state = "available";
    }

    /** Answers one SDK command by API and name, the way the service would. */
    handle(api: "ec2" | "elb" | "elbv2", command: string, input: Record<string, unknown>): Record<string, unknown> {
        const token = (input.NextToken ?? input.Marker) as string | undefined;
        this.calls.push({ command: `${api}:${command}`, token });
        const filter = (name: string) => (input.Filters as { Name: string; Values: string[] }[] | undefined)?.find((f) => f.Name === name)?.Values;
        const tagList = (t: Tags) => Object.entries(t).map(([Key, Value]) => ({ Key, Value }));
        const fail = (code: string, message: string) => Object.assign(new Error(message), { name: code, Code: code });
        switch (`${api}:${command}`) {
            case "elbv2:DescribeLoadBalancers": {
                if (!token) this.tick();
                const p = page(this.lbsV2, token, this.pageSize);
                return { LoadBalancers: p.items.map((l) => ({ LoadBalancerArn: l.arn, LoadBalancerName: l.name, DNSName: l.dnsName, VpcId: l.vpcId })), NextMarker: p.next };
            }
            case "elbv2:DescribeTags": {
                if ((input.ResourceArns as string[]).length > 20) throw fail("ValidationError", "at most 20 ARNs");
                return { TagDescriptions: (input.ResourceArns as string[]).map((arn) => ({ ResourceArn: arn, Tags: tagList(this.lbsV2.find((l) => l.arn === arn)?.tags ?? {}) })) };
            }
            case "elbv2:DeleteLoadBalancer":
                this.removeLbV2(input.LoadBalancerArn as string);
                return {};
            case "elb:DescribeLoadBalancers": {
                const p = page(this.classic, token, this.pageSize);
                return { LoadBalancerDescriptions: p.items.map((l) => ({ LoadBalancerName: l.name, DNSName: l.dnsName, VPCId: l.vpcId })), NextMarker: p.next };
            }
            case "elb:DescribeTags":
                return { TagDescriptions: (input.LoadBalancerNames as string[]).map((n) => ({ LoadBalancerName: n, Tags: tagList(this.classic.find((l) => l.name === n)?.tags ?? {}) })) };
            case "elb:DeleteLoadBalancer":
                this.removeClassic(input.LoadBalancerName as string);
                return {};
            case "ec2:DescribeNetworkInterfaces": {
                const vpc = filter("vpc-id") ?? [];
                const p = page(this.enis.filter((e) => vpc.includes(e.vpcId)), token, this.pageSize);
                return { NetworkInterfaces: p.items.map((e) => ({ NetworkInterfaceId: e.id, Description: e.description, Status: e.status })), NextToken: p.next };
            }
            case "ec2:DescribeSecurityGroups": {
                const vpc = filter("vpc-id") ?? [];
                const p = page(this.groups.filter((g) => vpc.includes(g.vpcId)), token, this.pageSize);
                return { SecurityGroups: p.items.map((g) => ({ GroupId: g.id, GroupName: g.name, Tags: tagList(g.tags) })), NextToken: p.next };
            }
            case "ec2:DescribeVolumes": {
                if (input.VolumeIds) throw fail("InvalidParameterCombination", "the drain must filter by volume-id");
                const ids = filter("volume-id") ?? [];
                const p = page(this.volumes.filter((v) => ids.includes(v.id)), token, this.pageSize);
                return { Volumes: p.items.map((v) => ({ VolumeId: v.id, State: v.state, Tags: tagList(v.tags) })), NextToken: p.next };
            }
            case "ec2:DeleteVolume": {
                const v = this.volumes.find((x) => x.id === input.VolumeId);
                if (!v) throw fail("InvalidVolume.NotFound", `The volume '${String(input.VolumeId)}' does not exist.`);
                if (v.state !== "available") throw fail("VolumeInUse", `Volume ${v.id} is currently attached`);
                this.volumes = this.volumes.filter((x) => x !== v);
                this.deleted.push(v.id);
                return {};
            }
            case "ec2:DeleteSecurityGroup": {
                const g = this.groups.find((x) => x.id === input.GroupId);
                if (!g) throw fail("InvalidGroup.NotFound", "no such group");
                if (g.name.startsWith("eks-cluster-sg") || this.classic.some((l) => g.name === `k8s-elb-${l.name}`)) throw fail("DependencyViolation", `resource ${g.id} has a dependent object`);
                this.groups = this.groups.filter((x) => x !== g);
                this.deleted.push(g.id);
                return {};
            }
            default:
                throw fail("UnknownOperation", `the fake AWS does not answer ${api}:${command}`);
        }
    }

    /** SDK clients over this account, as {@link awsDrainClient} takes them. */
    sdk(): AwsSdk {
        const commands = (): AwsCommands =>
            new Proxy({} as AwsCommands, {
                get: (_t, name: string) =>
                    class {
                        static commandName = name.replace(/Command$/, "");
                        constructor(readonly input: Record<string, unknown>) {}
                    },
            });
        const client = (api: "ec2" | "elb" | "elbv2") => ({
            send: async (cmd: unknown) => {
                const c = cmd as { input: Record<string, unknown>; constructor: { commandName: string } };
                return this.handle(api, c.constructor.commandName, c.input);
            },
        });
        return { ec2: { commands: commands(), client: client("ec2") }, elb: { commands: commands(), client: client("elb") }, elbv2: { commands: commands(), client: client("elbv2") } };
    }
}

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
