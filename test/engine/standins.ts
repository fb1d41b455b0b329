/**
 * Stand-ins for what a real cluster's cloud and storage integrations do and a control plane without kubelets
 * or a cloud cannot: they act through the API server exactly as the real controllers do, so everything the
 * program and Pulumi's await logic observe (a Service's address, a bound claim, a released volume) comes from
 * the API server's own objects.
 *
 * - **Load balancers** (imitating a cloud controller's service controller, k8s.io/cloud-provider
 *   controllers/service, and MetalLB's controller when a MetalLB `IPAddressPool` exists): a Service of type
 *   LoadBalancer with no `loadBalancerClass` of someone else's gets `status.loadBalancer.ingress[0].ip`, from the
 *   first MetalLB pool's range if there is one, else from 198.51.100.0/24 (TEST-NET-2, never routed).
 * - **Ingress status** (imitating the NGINX Ingress Controller's status reporting, `-report-ingress-status` with
 *   `-external-service`): an Ingress of a class whose controller is `nginx.org/ingress-controller` gets the address
 *   of the controller's LoadBalancer Service (label `app.kubernetes.io/name=nginx-ingress`) once it has one. The
 *   Kubernetes provider waits for that address before it calls an Ingress created.
 * - **Volumes** (imitating an external provisioner, sigs.k8s.io/sig-storage-lib-external-provisioner): a claim
 *   the PV controller has marked for {@link PROVISIONER} (`volume.kubernetes.io/storage-provisioner`) gets a PV
 *   of its size, access modes and class with a `claimRef`, which the PV controller then binds; a released PV it
 *   provisioned with reclaim policy Delete is deleted, as the library does.
 * - **The NFS subdir external provisioner's pod** (kubernetes-sigs/nfs-subdir-external-provisioner, which kwok
 *   does not run): while a Deployment whose container sets `PROVISIONER_NAME` (as the provisioner's chart writes it,
 *   whatever the release is called) has an available replica, claims for that provisioner name are served as above, with the PV that provisioner
 *   makes (an `nfs` source on its `NFS_SERVER`, at `<NFS_PATH>/<namespace>-<claim>-<pv>`); with no available
 *   replica, its claims stay pending and its released volumes stay, as they would.
 */
import { ApiEndpoint, ApiError, getOrUndefined, mergePatch, request } from "./kubeApi";

/** The provisioner name of the test cluster's default StorageClass. */
export const PROVISIONER = "stand-in.mara.test/volumes";
const PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";

/** A running set of stand-ins; `stop` ends their polling. */
export interface StandIns {
    stop(): Promise<void>;
    /** Errors the last rounds met (an empty list when healthy), for a failing test's message. */
    readonly errors: string[];
}

function ipv4ToInt(ip: string): number {
    return ip.split(".").reduce((n, o) => n * 256 + Number(o), 0);
}
const intToIpv4 = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".");

/** Addresses of a MetalLB `addresses` entry: a CIDR or a `first-last` range (IPv4 only). */
export function addressesOf(entry: string): { first: number; last: number } | undefined {
    const range = /^(\d+\.\d+\.\d+\.\d+)\s*-\s*(\d+\.\d+\.\d+\.\d+)$/.exec(entry);
    if (range) return { first: ipv4ToInt(range[1]!), last: ipv4ToInt(range[2]!) };
    const cidr = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(entry);
    if (!cidr) return undefined;
    const bits = Number(cidr[2]);
    const base = (ipv4ToInt(cidr[1]!) & (bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0)) >>> 0;
    const last = base + 2 ** (32 - bits) - 1;
    // The network and broadcast addresses of a CIDR wider than /31 are not handed out (MetalLB's avoidBuggyIPs).
    return bits < 31 ? { first: base + 1, last: last - 1 } : { first: base, last };
}

async function metallbPool(ep: ApiEndpoint): Promise<{ first: number; last: number } | undefined> {
    const pools = await getOrUndefined<{ items: { spec?: { addresses?: string[] } }[] }>(ep, "/apis/metallb.io/v1beta1/ipaddresspools");
    const first = pools?.items.flatMap((p) => p.spec?.addresses ?? [])[0];
    return first ? addressesOf(first) : undefined;
}

async function assignAddresses(ep: ApiEndpoint): Promise<void> {
    const services = await request<{ items: any[] }>(ep, "GET", "/api/v1/services");
    const lbs = services.items.filter((s) => s.spec?.type === "LoadBalancer" && !s.spec.loadBalancerClass);
    const used = new Set(lbs.flatMap((s) => (s.status?.loadBalancer?.ingress ?? []).map((i: { ip?: string }) => i.ip)));
    const pending = lbs.filter((s) => !(s.status?.loadBalancer?.ingress ?? []).length);
    if (!pending.length) return;
    const pool = (await metallbPool(ep)) ?? addressesOf("198.51.100.0/24")!;
    let next = pool.first;
    for (const s of pending) {
        while (next <= pool.last && used.has(intToIpv4(next))) next++;
        if (next > pool.last) return; // the pool is exhausted: the Service stays pending, as with MetalLB
        const ip = intToIpv4(next++);
        used.add(ip);
        await mergePatch(ep, `/api/v1/namespaces/${s.metadata.namespace}/services/${s.metadata.name}/status`, { status: { loadBalancer: { ingress: [{ ip, ipMode: "VIP" }] } } });
    }
}

async function reportIngressStatus(ep: ApiEndpoint): Promise<void> {
    const ingresses = await request<{ items: any[] }>(ep, "GET", "/apis/networking.k8s.io/v1/ingresses");
    const pending = ingresses.items.filter((i) => !(i.status?.loadBalancer?.ingress ?? []).length);
    if (!pending.length) return;
    const classes = await request<{ items: any[] }>(ep, "GET", "/apis/networking.k8s.io/v1/ingressclasses");
    const nginxClasses = new Set(classes.items.filter((c) => c.spec?.controller === "nginx.org/ingress-controller").map((c) => c.metadata.name));
    const services = await request<{ items: any[] }>(ep, "GET", "/api/v1/services?labelSelector=app.kubernetes.io%2Fname%3Dnginx-ingress");
    const address = services.items.filter((s) => s.spec?.type === "LoadBalancer").flatMap((s) => s.status?.loadBalancer?.ingress ?? [])[0];
    if (!address) return;
    for (const i of pending) {
        if (!nginxClasses.has(i.spec?.ingressClassName)) continue;
        await mergePatch(ep, `/apis/networking.k8s.io/v1/namespaces/${i.metadata.namespace}/ingresses/${i.metadata.name}/status`, { status: { loadBalancer: { ingress: [{ ip: address.ip }] } } });
    }
}

/** An NFS provisioner's settings, from the environment of its available Deployment. */
interface NfsProvisioner {
    server: string;
    path: string;
}

/** The provisioners served this round: the cluster's own, and each NFS provisioner whose pod would be running. */
async function provisioners(ep: ApiEndpoint): Promise<Map<string, NfsProvisioner | undefined>> {
    const served = new Map<string, NfsProvisioner | undefined>([[PROVISIONER, undefined]]);
    const deployments = await request<{ items: any[] }>(ep, "GET", "/apis/apps/v1/deployments");
    for (const d of deployments.items) {
        if (!(d.status?.availableReplicas >= 1)) continue;
        for (const c of d.spec.template.spec.containers ?? []) {
            const env = new Map<string, string>((c.env ?? []).map((e: { name: string; value?: string }) => [e.name, e.value ?? ""]));
            const name = env.get("PROVISIONER_NAME");
            if (name && env.has("NFS_SERVER")) served.set(name, { server: env.get("NFS_SERVER") ?? "", path: env.get("NFS_PATH") ?? "" });
        }
    }
    return served;
}

async function provisionVolumes(ep: ApiEndpoint): Promise<void> {
    const served = await provisioners(ep);
    const claims = await request<{ items: any[] }>(ep, "GET", "/api/v1/persistentvolumeclaims");
    for (const c of claims.items) {
        const ann = c.metadata.annotations ?? {};
        const provisioner = ann["volume.kubernetes.io/storage-provisioner"] ?? ann["volume.beta.kubernetes.io/storage-provisioner"];
        if (!served.has(provisioner) || c.status?.phase !== "Pending" || c.spec.volumeName) continue;
        const nfs = served.get(provisioner);
        const name = `pvc-${c.metadata.uid}`;
        if (await getOrUndefined(ep, `/api/v1/persistentvolumes/${name}`)) continue;
        const cls = c.spec.storageClassName ? await getOrUndefined(ep, `/apis/storage.k8s.io/v1/storageclasses/${c.spec.storageClassName}`) : undefined;
        try {
            await request(ep, "POST", "/api/v1/persistentvolumes", {
                apiVersion: "v1",
                kind: "PersistentVolume",
                metadata: { name, annotations: { [PROVISIONED_BY]: provisioner } },
                spec: {
                    capacity: { storage: c.spec.resources?.requests?.storage ?? "1Gi" },
                    accessModes: c.spec.accessModes ?? ["ReadWriteOnce"],
                    storageClassName: c.spec.storageClassName ?? "",
                    persistentVolumeReclaimPolicy: cls?.reclaimPolicy ?? "Delete",
                    volumeMode: c.spec.volumeMode ?? "Filesystem",
                    claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: c.metadata.namespace, name: c.metadata.name, uid: c.metadata.uid },
                    // No data is ever written: no container runs. A path no one uses keeps the object valid.
                    ...(nfs
                        ? { nfs: { server: nfs.server, path: `${nfs.path}/${c.metadata.namespace}-${c.metadata.name}-${name}` } }
                        : { hostPath: { path: `/var/lib/mara-stand-in/${name}`, type: "" } }),
                },
            });
        } catch (e) {
            if (!(e instanceof ApiError && e.status === 409)) throw e;
        }
    }
    const volumes = await request<{ items: any[] }>(ep, "GET", "/api/v1/persistentvolumes");
    for (const v of volumes.items) {
        if (!served.has(v.metadata.annotations?.[PROVISIONED_BY])) continue;
        if (v.status?.phase === "Released" && v.spec.persistentVolumeReclaimPolicy === "Delete") {
            try {
                await request(ep, "DELETE", `/api/v1/persistentvolumes/${v.metadata.name}`);
            } catch (e) {
                if (!(e instanceof ApiError && e.status === 404)) throw e;
            }
        }
    }
}

/** Starts the stand-ins; each round runs every `intervalMs`. */
export function startStandIns(ep: ApiEndpoint, intervalMs = 300): StandIns {
    const errors: string[] = [];
    let stopped = false;
    let running: Promise<void> = Promise.resolve();
    const round = async () => {
        for (const [what, fn] of [
            ["load balancers", assignAddresses],
            ["ingress status", reportIngressStatus],
            ["volumes", provisionVolumes],
        ] as const) {
            try {
                await fn(ep);
            } catch (e) {
                errors.push(`${what}: ${(e as Error).message}`);
                if (errors.length > 50) errors.shift();
            }
        }
    };
    const loop = async () => {
        while (!stopped) {
            running = round();
            await running;
            await new Promise((r) => setTimeout(r, intervalMs));
        }
    };
    void loop();
    return {
        errors,
        async stop() {
            stopped = true;
            await running;
        },
    };
}
