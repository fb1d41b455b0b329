/**
 * The program's dynamic providers as Pulumi runs them. The program runs as `pulumi up` runs it: in its own
 * process, through Pulumi's own entry point (`@pulumi/pulumi/cmd/run`), with the node arguments and
 * environment the language host derives from Pulumi.yaml's runtime options (the loader the project
 * chose), against a local resource monitor that records each registration's inputs; that gives the
 * serialized `__provider` text. Pulumi's own dynamic-provider host is started as Pulumi starts it (plain
 * node, no TypeScript loader) and driven with the engine's gRPC requests: Create, Diff, Update and Delete.
 * Delete runs the drain against moto (the AWS API emulator) through the real AWS SDK, fakes of the
 * DigitalOcean and Linode APIs, and a fake Kubernetes API; only @linode/api-v4 and DigitalOcean's host are
 * stand-ins.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedFailure, HostedRun, runHosted, runtimeOptionsOf } from "../../bench/lib/pulumiHost";
import { useLinearStructs } from "../../offline/mockRuntime";
import { EBS_CSI_DRIVER } from "../../components/drain/aws";
import { DO_CSI_DRIVER, DO_LB_ID_ANNOTATION } from "../../components/drain/digitalocean";
import { LINODE_CSI_DRIVER } from "../../components/drain/linode";
import { fixture } from "../support/config";
import { Moto, startMoto } from "../aws-emulator/moto";
import { AwsWorld } from "../aws-emulator/world";
import { FakeDigitalOcean, FakeKubernetes, FakeLinode, FakePv, STUCK_CONTROLLER } from "../support/fakeClouds";
import { FakeApiServer, serveKubernetes } from "../support/fakeKubernetesServer";
import { unwrapSecrets } from "../support/mocks";
import { ProviderHost, ROOT, serveFakeClouds, startProviderHost } from "../support/providerHost";

type Inputs = Record<string, unknown> & { __provider: string };
interface Run {
    fixture: string;
    drain: Inputs;
    retention: Inputs;
    /** What the program's process loaded (files under the project, and packages). */
    loaded: string[];
}

const SECRETS = { "digitalocean:token": "do-token", "linode:token": "linode-token" };
const PROJECT = parse(fs.readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8")) as { main?: string; runtime?: unknown };

/** Runs the program once per fixture, each in a fresh process as each `pulumi preview` or `pulumi up` does. */
async function programRuns(fixtures: string[]): Promise<Run[]> {
    // The engine's side, the SDK's mock monitor in this process, answers with Structs built in one pass; the program's
    // process builds its requests with the SDK's own code, as under `pulumi up`.
    useLinearStructs();
    const runs: Run[] = [];
    for (const name of fixtures) {
        const config = fixture(name, { secrets: SECRETS });
        const run: HostedRun = await runHosted({
            dir: ROOT,
            main: PROJECT.main ?? ".",
            runtime: runtimeOptionsOf(PROJECT),
            config,
            env: config.env as Record<string, string>,
            recordInputs: true,
            reportLoaded: true,
        });
        if (run.exitCode !== 0) throw new Error(`program run for ${name} failed: ${hostedFailure(run)}`);
        const inputs = (n: string) => unwrapSecrets(run.registrations.find((r) => r.type === "pulumi-nodejs:dynamic:Resource" && r.name === n)?.inputs) as Inputs;
        runs.push({ fixture: name, drain: inputs("drain-drain"), retention: inputs("volume-retention-retain"), loaded: run.report?.loaded ?? [] });
    }
    return runs;
}

const URN = "urn:pulumi:dev::mara::mara:infra:ClusterDrain$pulumi-nodejs:dynamic:Resource::drain-drain";
const RETAIN_URN = "urn:pulumi:dev::mara::mara:k8s:VolumeRetention$pulumi-nodejs:dynamic:Resource::volume-retention-retain";

let first: Record<string, Run>;
let second: Run;
const world: { doApi?: FakeDigitalOcean; linode?: FakeLinode } = {};
let clouds: { url: string; close(): Promise<void> };
let moto: Moto;
let motoMissing: Error | undefined;
let host: ProviderHost;
const servers: FakeApiServer[] = [];

beforeAll(async () => {
    const a = await programRuns(["minimal-aws", "mara-do", "mara-lke", "mara-kubeconfig"]);
    const b = await programRuns(["minimal-aws"]);
    first = Object.fromEntries(a.map((r) => [r.fixture, r]));
    second = b[0]!;
    clouds = await serveFakeClouds(world);
    // Without moto only the AWS tests fail (each throws why), not the whole file as skipped tests.
    moto = await startMoto().catch((e: unknown) => ((motoMissing = e instanceof Error ? e : new Error(String(e))), undefined as unknown as Moto));
    host = await startProviderHost(clouds.url, moto?.endpoint ?? "http://127.0.0.1:9");
}, 600_000);

afterAll(async () => {
    host?.close();
    await clouds?.close();
    await moto?.stop();
    await Promise.all(servers.map((s) => s.close()));
});

/** A fake cluster served over HTTP; its kubeconfig replaces the mock run's in the drain's settings. */
async function cluster(k8s: FakeKubernetes): Promise<string> {
    const server = await serveKubernetes(k8s);
    servers.push(server);
    return server.kubeconfig;
}

const fast = { graceSeconds: 0, pollSeconds: 0.05, timeoutMinutes: 1 };

describe("the program's process", () => {
    it("loads the program with the loader Pulumi.yaml names, and never ts-node", () => {
        for (const run of Object.values(first)) {
            expect(run.loaded, run.fixture).toContain("index.ts");
            expect(run.loaded.some((f) => /node_modules\/sucrase\/dist\/register\.js$/.test(f)), run.fixture).toBe(true);
            expect(run.loaded.filter((f) => f.includes("node_modules/ts-node/")), run.fixture).toEqual([]);
        }
    });
});

describe("the serialized providers", () => {
    it("are the same text in two separate program runs, so an unchanged stack previews no change", () => {
        expect(second.drain.__provider).toBe(first["minimal-aws"]!.drain.__provider);
        expect(second.retention.__provider).toBe(first["minimal-aws"]!.retention.__provider);
    });

    it("carry no project path, TypeScript, or secret, and require only installed packages", () => {
        for (const run of Object.values(first)) {
            for (const text of [run.drain.__provider, run.retention.__provider]) {
                expect(text).not.toContain(ROOT);
                expect(text).not.toMatch(/["'][^"'\s]*\.ts["']/);
                expect(text).not.toContain(run.drain.kubeconfig as string);
                for (const secret of ["do-token", "linode-token"]) expect(text).not.toContain(secret);
                for (const [, name] of text.matchAll(/require\("([^"]+)"\)/g)) {
                    expect(name, name).not.toMatch(/^([./]|ts-node|typescript|tsx)/);
                    expect(require.resolve(name!, { paths: [ROOT] }), name).toMatch(/node_modules.*\.(c|m)?js$/);
                }
            }
        }
    });
});

describe("the drain in Pulumi's dynamic-provider host", () => {
    it("creates by doing nothing, and diffs an unchanged second run as no change, a changed setting as an in-place update", async () => {
        const { id, outs } = await host.create(URN, first["minimal-aws"]!.drain);
        expect(id).toBe("mara-dev-drain");
        expect(await host.diff(id, URN, outs, second.drain)).toEqual({ changes: "none", replaces: [] });
        expect(await host.diff(id, URN, outs, { ...second.drain, retainVolumes: true })).toEqual({ changes: "some", replaces: [] });
        // A new version of the drain's code is stored by an update, so destroy runs the code of the last `up`.
        expect(await host.diff(id, URN, outs, { ...second.drain, __provider: `${second.drain.__provider}\n` })).toEqual({ changes: "some", replaces: [] });
        const updated = await host.update(id, URN, outs, { ...second.drain, retainVolumes: true });
        expect(updated.retainVolumes).toBe(true);
    });

    it("deletes on AWS exactly what the cluster's records prove, through the serialized code and the real AWS SDK", async () => {
        if (motoMissing) throw motoMissing;
        await moto.reset();
        const inputs = first["minimal-aws"]!.drain;
        const aws = new AwsWorld(moto.endpoint);
        const vpc = await aws.vpc("10.0.0.0/16");
        const owned = { "kubernetes.io/cluster/mara-dev": "owned" };
        // The host reaches moto directly, with no gap in front to release ELB's interfaces: the load balancers get none.
        const nlbH = await aws.nlb("nlb-h", "nlb-h", vpc, owned, false);
        await aws.nlb("nlb-n", "nlb-n", vpc, owned, false);
        await aws.group("sg-eks", vpc, "eks-cluster-sg-mara-dev-1", owned);
        const h1 = await aws.volume("vol-h1", { CSIVolumeName: "pvc-h1" });
        const h2 = await aws.volume("vol-h2", { CSIVolumeName: "pvc-h2" });
        await aws.volume("vol-n", { ...owned, CSIVolumeName: "pvc-earlier" });
        const k8s = new FakeKubernetes(
            [
                { name: "pvc-h1", reclaimPolicy: "Delete", driver: EBS_CSI_DRIVER, handle: h1, provisionedBy: EBS_CSI_DRIVER },
                { name: "pvc-h2", reclaimPolicy: "Retain", driver: EBS_CSI_DRIVER, handle: h2, provisionedBy: EBS_CSI_DRIVER },
            ],
            [{ namespace: "shop", name: "api", type: "LoadBalancer", hostnames: [nlbH], annotations: { [STUCK_CONTROLLER]: "true" } }],
        );
        await host.delete("mara-dev-drain", URN, { ...inputs, ...fast, vpcId: vpc.id, kubeconfig: await cluster(k8s) });
        expect(await aws.gone()).toEqual(["nlb-h", "vol-h1"]);
        expect(k8s.deletedServices).toEqual(["shop/api"]);
        // The host writes its log to a pipe the gRPC answer can overtake: wait for the line rather than read once.
        await expect.poll(() => host.output()).toContain(`[mara drain] AWS cluster mara-dev in us-east-1: keeps volume PersistentVolume pvc-h2 (${h2}): its PersistentVolume's reclaim policy is Retain`);
        await expect.poll(() => host.output()).toContain("[mara drain] AWS cluster mara-dev in us-east-1: nothing this cluster created is left (1 resource(s) kept, listed above); the cluster can be deleted.");
    }, 120_000);

    it("deletes on DigitalOcean and Linode through the serialized code", async () => {
        const doInputs = first["mara-do"]!.drain;
        const doCluster = new FakeKubernetes(
            [{ name: "pvc-d1", reclaimPolicy: "Delete", driver: DO_CSI_DRIVER, handle: "vol-d1", provisionedBy: DO_CSI_DRIVER }],
            [{ namespace: "shop", name: "api", type: "LoadBalancer", ips: ["203.0.113.5"], annotations: { [DO_LB_ID_ANNOTATION]: "lb-d", [STUCK_CONTROLLER]: "true" } }],
        );
        const tag = `k8s:${doInputs.clusterId as string}`;
        world.doApi = new FakeDigitalOcean(
            [
                { id: "lb-samename", name: "mara-dev-ingress", ip: "198.51.100.1", tags: ["k8s:another-cluster"] },
                { id: "lb-d", name: "a-api", ip: "203.0.113.5", tags: [tag] },
            ],
            [
                { id: "vol-d1", name: "pvc-d1", tags: [tag], dropletIds: [] },
                { id: "vol-n", name: "pvc-earlier", tags: [tag], dropletIds: [] },
            ],
            1,
        );
        await host.delete("mara-dev-drain", URN, { ...doInputs, ...fast, kubeconfig: await cluster(doCluster) });
        expect(world.doApi.deleted.sort()).toEqual(["lb-d", "vol-d1"]);

        const lkeInputs = first["mara-lke"]!.drain;
        const lkeCluster = new FakeKubernetes(
            [{ name: "pvc-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", reclaimPolicy: "Delete", driver: LINODE_CSI_DRIVER, handle: "101-pvc-1a2b3c4d-5e6f-4a7b-8c9d-0e1f", provisionedBy: LINODE_CSI_DRIVER }],
            [{ namespace: "shop", name: "api", type: "LoadBalancer", ips: ["198.51.100.7"], annotations: { [STUCK_CONTROLLER]: "true" } }],
        );
        world.linode = new FakeLinode(
            [
                { id: 1, label: "users-own", ipv4: "192.0.2.1", hostname: "h1", tags: ["mara-cluster-mara-dev"] },
                { id: 7, label: "ccm-ours", ipv4: "198.51.100.7", hostname: "h7", tags: [] },
            ],
            [
                { id: 101, label: "pvc-1a2b3c4d-5e6f-4a7b-8c9d-0e1f", tags: [], linodeId: null },
                { id: 106, label: "grouped", tags: ["mara-cluster-mara-dev"], linodeId: null },
            ],
            1,
        );
        await host.delete("mara-dev-drain", URN, { ...lkeInputs, ...fast, kubeconfig: await cluster(lkeCluster) });
        expect(world.linode.deleted.sort()).toEqual(["nb:7", "vol:101"]);
    });

    it("deletes nothing on an existing cluster, and nothing when the cluster cannot be reached", async () => {
        const k8s = new FakeKubernetes([], [], [{ name: "elasticsearches.elasticsearch.k8s.elastic.co", group: "elasticsearch.k8s.elastic.co" }]);
        await host.delete("mara-dev-drain", URN, { ...first["mara-kubeconfig"]!.drain, ...fast, removeCrds: true, kubeconfig: await cluster(k8s) });
        expect(k8s.deletedCrds).toEqual([]);
        // The host writes its log to a pipe the gRPC answer can overtake: wait for the line rather than read once.
        await expect.poll(() => host.output()).toMatch(/\[mara drain\] .*: an existing cluster; the drain deletes nothing in it or in any cloud\./);

        if (motoMissing) throw motoMissing;
        await moto.reset();
        const aws = new AwsWorld(moto.endpoint);
        const vpc = await aws.vpc("10.0.0.0/16");
        await aws.volume("vol-x", { CSIVolumeName: "pvc-x" });
        const gone = await serveKubernetes(new FakeKubernetes());
        await gone.close();
        await host.delete("mara-dev-drain", URN, { ...first["minimal-aws"]!.drain, ...fast, vpcId: vpc.id, kubeconfig: gone.kubeconfig });
        expect(await aws.gone()).toEqual([]);
        await expect.poll(() => host.output()).toContain("Nothing can be proven to be this cluster's, so the drain deletes nothing");
    });
});

describe("volume retention in Pulumi's dynamic-provider host", () => {
    it("switches the platform's Delete volumes to Retain when retention is on, and leaves everything alone when off", async () => {
        const k8s = new FakeKubernetes([
            { name: "pvc-es", reclaimPolicy: "Delete", driver: EBS_CSI_DRIVER, handle: "vol-1", provisionedBy: EBS_CSI_DRIVER, claim: "logstore/elasticsearch-data-elastic-es-default-0" },
            { name: "pvc-db", reclaimPolicy: "Delete", driver: EBS_CSI_DRIVER, handle: "vol-2", provisionedBy: EBS_CSI_DRIVER, claim: "bos/data-accounts-db-0" },
            { name: "pvc-theirs", reclaimPolicy: "Delete", driver: EBS_CSI_DRIVER, handle: "vol-3", provisionedBy: EBS_CSI_DRIVER, claim: "team/data" },
        ] as FakePv[]);
        const kubeconfig = await cluster(k8s);
        const inputs = first["minimal-aws"]!.retention;
        const { id, outs } = await host.create(RETAIN_URN, { ...inputs, kubeconfig });
        expect(k8s.retained).toEqual([]);
        expect(await host.diff(id, RETAIN_URN, outs, { ...second.retention, kubeconfig })).toEqual({ changes: "none", replaces: [] });
        await host.update(id, RETAIN_URN, outs, { ...inputs, kubeconfig, retainVolumes: true });
        expect(k8s.retained.sort()).toEqual(["pvc-db", "pvc-es"]);
        expect(k8s.pvs.find((p) => p.name === "pvc-theirs")!.reclaimPolicy).toBe("Delete");
    });
});
