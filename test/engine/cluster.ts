/**
 * A real Kubernetes 1.35 control plane on loopback for the real-engine tier: etcd, kube-apiserver,
 * kube-controller-manager and kube-scheduler built from their Go modules (test/engine/build.sh), kwok for nodes
 * and pods that report ready without running containers (Job pods complete), and the stand-ins of standins.ts for
 * load-balancer addresses and volumes. CRD schemas, CEL rules, defaulting, field validation, server-side apply,
 * garbage collection and namespace deletion are the real API server's and controllers'.
 *
 * Admission webhooks are off (`--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook`):
 * the charts' webhook servers (cert-manager, the Prometheus operator, ECK, the OpenTelemetry operator) are pods,
 * and no pod runs here, so a webhook configuration with `failurePolicy: Fail` would refuse every object it
 * covers. A stand-in that admits everything would test no more than the plugins being off, so they are off; what
 * a webhook adds on a real cluster (its defaulting and extra checks) is outside this tier. ValidatingAdmissionPolicy
 * (CEL, in-process) stays on.
 */
import { ChildProcess, spawn } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import { ApiEndpoint, getOrUndefined, request, waitFor } from "./kubeApi";
import { kubeletStages, PodPace } from "./kubeletStages";
import { PROVISIONER, StandIns, startStandIns } from "./standins";

/** The repository root. */
export const ROOT = path.resolve(__dirname, "..", "..");
/** Where test/engine/build.sh puts the binaries. */
export const ENGINE_BIN = path.join(process.env.MARA_ENGINE_DIR ?? path.join(ROOT, ".cache", "engine"), "bin");
/** The stand-in plugins (language host, dynamic-provider launcher, random and tls). */
export const ENGINE_PLUGINS = path.join(ROOT, "test", "engine", "plugins");

const CLUSTER_BINARIES = ["etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml", "kubectl"];

/** Fails with what is missing and the command that builds it, never a silent skip. */
export function requireBinaries(names: readonly string[] = CLUSTER_BINARIES): void {
    const missing = names.filter((n) => !fs.existsSync(path.join(ENGINE_BIN, n)));
    if (missing.length) {
        throw new Error(
            `the real-engine tier needs ${missing.join(", ")} in ${path.relative(ROOT, ENGINE_BIN)}; build them with \`bash test/engine/build.sh\` ` +
                `(it needs Go 1.26 or later and the Go module proxy; a first build takes 20-40 minutes on two cores)`,
        );
    }
}

/** A running test cluster. */
export interface TestCluster extends ApiEndpoint {
    /** Folder holding the cluster's files (kubeconfig, logs, etcd data). */
    readonly dir: string;
    /** Path of a kubeconfig for the cluster admin (context {@link CONTEXT}). */
    readonly kubeconfig: string;
    /** Names of the kwok nodes. */
    readonly nodes: readonly string[];
    readonly standIns: StandIns;
    /** The last lines of a component's log, for a failing test's message. */
    logTail(component: string, lines?: number): string;
    /**
     * Stops the API server (SIGTERM, as a control-plane upgrade or restart does) and resolves once it has exited;
     * etcd and everything else keep running.
     */
    stopApiServer(): Promise<void>;
    /** Starts the API server again with the same flags: the same port, certificates, token and etcd data. Resolves once it is ready. */
    startApiServer(): Promise<void>;
    /** Stops every process and removes the folder. */
    stop(): Promise<void>;
}

/** Context name in the kubeconfig the cluster writes. */
export const CONTEXT = "mara-engine";
/** The test cluster's default StorageClass. */
export const STORAGE_CLASS = "standard";

async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const s = net.createServer();
        s.unref();
        s.on("error", reject);
        s.listen(0, "127.0.0.1", () => {
            const port = (s.address() as net.AddressInfo).port;
            s.close(() => resolve(port));
        });
    });
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
    /** Number of kwok nodes (default 3), each 16 CPUs and 64 GiB allocatable unless `nodeCapacity` says otherwise. */
    nodes?: number;
    /** Allocatable CPU and memory of each node. */
    nodeCapacity?: { cpu: string; memory: string };
    /** Create the default StorageClass (default true). */
    storageClass?: boolean;
    /** Extra kube-apiserver flags. */
    apiserverArgs?: string[];
    /** How fast pods become ready and Jobs complete (kubeletStages.ts); default `brisk`. */
    podPace?: PodPace;
}

/**
 * The InternalIP of the `i`th node (from 0): 192.168.78.11 and on, a private range apart from the addresses the tests
 * give MetalLB's pools and the NFS server (192.168.77.0/24), so no pool holds a node's address unless a test says so.
 */
export function nodeAddress(i: number): string {
    return `192.168.78.${11 + i}`;
}

/** Starts a cluster; resolves once the API server is ready, the nodes are Ready and `default` has its ServiceAccount. */
export async function startCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
    requireBinaries();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-engine-"));
    const procs: { name: string; proc: ChildProcess }[] = [];
    let standIns: StandIns | undefined;
    const logTail = (component: string, lines = 30) => {
        try {
            return fs.readFileSync(path.join(dir, `${component}.log`), "utf8").split("\n").slice(-lines).join("\n");
        } catch {
            return "(no log)";
        }
    };
    const stop = async () => {
        await standIns?.stop();
        for (const { proc } of [...procs].reverse()) proc.kill("SIGTERM");
        await Promise.all(
            procs.map(
                ({ proc }) =>
                    new Promise<void>((resolve) => {
                        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
                        const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
                        proc.on("exit", () => {
                            clearTimeout(t);
                            resolve();
                        });
                    }),
            ),
        );
        fs.rmSync(dir, { recursive: true, force: true });
    };
    const run = (name: string, args: string[]) => {
        const log = fs.openSync(path.join(dir, `${name}.log`), "a");
        const proc = spawn(path.join(ENGINE_BIN, name), args, { stdio: ["ignore", log, log] });
        fs.closeSync(log);
        procs.push({ name, proc });
        proc.on("exit", (code, signal) => {
            if (!stopping) fs.appendFileSync(path.join(dir, `${name}.log`), `\n[${name} exited: ${code ?? signal}]\n`);
        });
        return proc;
    };
    let stopping = false;
    try {
        const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
        const etcdUrl = `http://127.0.0.1:${etcdPort}`;
        run("etcd", [
            "--name=default",
            `--data-dir=${path.join(dir, "etcd")}`,
            `--listen-client-urls=${etcdUrl}`,
            `--advertise-client-urls=${etcdUrl}`,
            `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
            `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
            `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
            "--listen-metrics-urls=",
            // Test data: speed over durability.
            "--unsafe-no-fsync",
            "--log-level=warn",
        ]);
        await waitFor("etcd", async () => ((await fetch(`${etcdUrl}/health`)).ok ? true : undefined), 30_000);

        const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
        fs.writeFileSync(path.join(dir, "sa.key"), privateKey.export({ type: "pkcs1", format: "pem" }), { mode: 0o600 });
        fs.writeFileSync(path.join(dir, "sa.pub"), publicKey.export({ type: "spki", format: "pem" }));
        const token = crypto.randomBytes(24).toString("hex");
        fs.writeFileSync(path.join(dir, "tokens.csv"), `${token},mara-admin,mara-admin,"system:masters"\n`, { mode: 0o600 });
        const certDir = path.join(dir, "pki");
        const apiserverArgs = [
            `--etcd-servers=${etcdUrl}`,
            "--bind-address=127.0.0.1",
            "--advertise-address=127.0.0.1",
            // The API server would publish its loopback address as the `kubernetes` Service's endpoint, which
            // EndpointSlice validation refuses; nothing in the cluster talks to it through the Service.
            "--endpoint-reconciler-type=none",
            `--secure-port=${apiPort}`,
            `--cert-dir=${certDir}`,
            `--token-auth-file=${path.join(dir, "tokens.csv")}`,
            "--authorization-mode=RBAC",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            `--service-account-key-file=${path.join(dir, "sa.pub")}`,
            `--service-account-signing-key-file=${path.join(dir, "sa.key")}`,
            "--service-cluster-ip-range=10.96.0.0/16",
            "--allow-privileged=true",
            "--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook",
            "--profiling=false",
            ...(opts.apiserverArgs ?? []),
        ];
        run("kube-apiserver", apiserverArgs);
        const caFile = path.join(certDir, "apiserver.crt");
        await waitFor("the API server's certificate", async () => (fs.existsSync(caFile) ? true : undefined), 60_000);
        const ep: ApiEndpoint = { server: `https://127.0.0.1:${apiPort}`, ca: fs.readFileSync(caFile, "utf8"), token };
        await waitFor("the API server to be ready", async () => ((await request(ep, "GET", "/readyz")) === "ok" ? true : undefined), 120_000, 500);

        const kubeconfig = path.join(dir, "kubeconfig.yaml");
        fs.writeFileSync(kubeconfig, kubeconfigText(ep, CONTEXT), { mode: 0o600 });
        run("kube-controller-manager", [
            `--kubeconfig=${kubeconfig}`,
            "--leader-elect=false",
            "--secure-port=0",
            `--service-account-private-key-file=${path.join(dir, "sa.key")}`,
            `--root-ca-file=${caFile}`,
            "--use-service-account-credentials=false",
            // Fast enough for tests: namespace deletion and garbage collection within seconds.
            "--concurrent-namespace-syncs=5",
        ]);
        run("kube-scheduler", [`--kubeconfig=${kubeconfig}`, "--leader-elect=false", "--secure-port=0"]);
        run("kwok", [`--kubeconfig=${kubeconfig}`, `--config=${kubeletStages(opts.podPace ?? "brisk", path.join(ENGINE_BIN, "kwok-stages.yaml"), dir)}`, "--manage-all-nodes=false", "--manage-nodes-with-label-selector=kwok.x-k8s.io/node=fake", "--server-address=", "--node-lease-duration-seconds=40"]);

        const nodes = Array.from({ length: opts.nodes ?? 3 }, (_, i) => `mara-engine-node-${i + 1}`);
        const capacity = opts.nodeCapacity ?? { cpu: "16", memory: "64Gi" };
        for (const [i, name] of nodes.entries()) {
            await request(ep, "POST", "/api/v1/nodes", {
                apiVersion: "v1",
                kind: "Node",
                metadata: {
                    name,
                    labels: { "kwok.x-k8s.io/node": "fake", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "node.kubernetes.io/instance-type": "kwok" },
                    annotations: { "node.alpha.kubernetes.io/ttl": "0", "kwok.x-k8s.io/node": "fake" },
                },
                spec: {},
                // Each node publishes its address, as a kubelet does. Without one, kwok gives a hostNetwork pod (a
                // DaemonSet's node exporter, MetalLB's speaker) no IP, its pod-create stage matches that pod again and
                // sets it back to Pending, and the DaemonSet flaps between ready and not until a wait happens to catch it.
                status: { addresses: [{ type: "InternalIP", address: nodeAddress(i) }, { type: "Hostname", address: name }], allocatable: { ...capacity, pods: "250" }, capacity: { ...capacity, pods: "250" }, nodeInfo: { kubeletVersion: "v1.35.4-kwok", architecture: "amd64", operatingSystem: "linux", containerRuntimeVersion: "kwok://0.8" } },
            });
        }
        if (opts.storageClass !== false) {
            await request(ep, "POST", "/apis/storage.k8s.io/v1/storageclasses", {
                apiVersion: "storage.k8s.io/v1",
                kind: "StorageClass",
                metadata: { name: STORAGE_CLASS, annotations: { "storageclass.kubernetes.io/is-default-class": "true" } },
                provisioner: PROVISIONER,
                reclaimPolicy: "Delete",
                volumeBindingMode: "Immediate",
                allowVolumeExpansion: true,
            });
        }
        standIns = startStandIns(ep);
        await waitFor(
            "the nodes to be Ready",
            async () => {
                const list = await request<{ items: any[] }>(ep, "GET", "/api/v1/nodes");
                const ready = list.items.filter((n) => n.status?.conditions?.some((c: any) => c.type === "Ready" && c.status === "True"));
                return ready.length === nodes.length ? true : undefined;
            },
            60_000,
        );
        await waitFor("the default ServiceAccount", () => getOrUndefined(ep, "/api/v1/namespaces/default/serviceaccounts/default"), 60_000);
        const cluster: TestCluster = {
            ...ep,
            dir,
            kubeconfig,
            nodes,
            standIns,
            logTail,
            async stopApiServer() {
                const i = procs.findIndex((p) => p.name === "kube-apiserver");
                if (i < 0) return;
                const { proc } = procs[i]!;
                procs.splice(i, 1);
                if (proc.exitCode !== null || proc.signalCode !== null) return;
                await new Promise<void>((resolve) => {
                    const t = setTimeout(() => proc.kill("SIGKILL"), 30_000);
                    proc.on("exit", () => {
                        clearTimeout(t);
                        resolve();
                    });
                    proc.kill("SIGTERM");
                });
            },
            async startApiServer() {
                run("kube-apiserver", apiserverArgs);
                await waitFor("the API server to be ready again", async () => ((await request(ep, "GET", "/readyz").catch(() => undefined)) === "ok" ? true : undefined), 120_000, 500);
            },
            stop: async () => {
                stopping = true;
                await stop();
            },
        };
        return cluster;
    } catch (e) {
        const tails = procs.map(({ name }) => `--- ${name} ---\n${logTail(name, 15)}`).join("\n");
        stopping = true;
        await stop();
        throw new Error(`the test cluster did not start: ${(e as Error).message}\n${tails}`);
    }
}

/** A kubeconfig for `ep`: the cluster's CA and a bearer token. */
export function kubeconfigText(ep: ApiEndpoint, context: string, user = "mara-admin"): string {
    return [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        `- name: ${context}`,
        "  cluster:",
        `    server: ${ep.server}`,
        `    certificate-authority-data: ${Buffer.from(ep.ca).toString("base64")}`,
        "users:",
        `- name: ${user}`,
        "  user:",
        `    token: ${ep.token}`,
        "contexts:",
        `- name: ${context}`,
        "  context:",
        `    cluster: ${context}`,
        `    user: ${user}`,
        `current-context: ${context}`,
        "",
    ].join("\n");
}
