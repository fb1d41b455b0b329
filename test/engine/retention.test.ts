/**
 * Volume retention (`mara:retainVolumes`, components/drain/retentionProvider.ts) against a real Kubernetes 1.35 API
 * server: the dynamic provider's steps run in-process, as the engine's dynamic-provider host runs them, on claims
 * the tier's volume stand-in has provisioned. It switches exactly the platform's volumes to Retain (a neighbour's
 * volume in another namespace is left alone), the data survives its namespace's deletion, turning retention off
 * never makes a volume deletable again, and an unreachable cluster stops the step instead of passing silently.
 */
import * as fs from "fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retentionProvider, RetentionProps } from "../../components/drain/retentionProvider";
import { CONTEXT, startCluster, STORAGE_CLASS, TestCluster } from "./cluster";
import { getOrUndefined, request, waitFor } from "./kubeApi";

let cluster: TestCluster;
let props: RetentionProps;

/** A namespace with one claim of the default class, bound; returns its volume's name. */
async function claimIn(namespace: string): Promise<string> {
    await request(cluster, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
    await request(cluster, "POST", `/api/v1/namespaces/${namespace}/persistentvolumeclaims`, {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: { name: "data" },
        spec: { accessModes: ["ReadWriteOnce"], storageClassName: STORAGE_CLASS, resources: { requests: { storage: "1Gi" } } },
    });
    return waitFor(`the claim in ${namespace} to be bound`, async () => {
        const c = await request<any>(cluster, "GET", `/api/v1/namespaces/${namespace}/persistentvolumeclaims/data`);
        return c.status?.phase === "Bound" ? (c.spec.volumeName as string) : undefined;
    });
}

const policy = async (pv: string) => (await request<any>(cluster, "GET", `/api/v1/persistentvolumes/${pv}`)).spec.persistentVolumeReclaimPolicy as string;

beforeAll(async () => {
    cluster = await startCluster();
    props = { retainVolumes: true, namespaces: ["logstore", "bos"], kubeconfig: fs.readFileSync(cluster.kubeconfig, "utf8"), context: CONTEXT };
});

afterAll(async () => {
    await cluster?.stop();
});

describe("volume retention against a real API server", () => {
    let ours: string;
    let neighbours: string;

    it("at destroy, switches the platform's volumes to Retain and leaves a neighbour's alone", async () => {
        [ours, neighbours] = await Promise.all([claimIn("logstore"), claimIn("team-a")]);
        expect([await policy(ours), await policy(neighbours)]).toEqual(["Delete", "Delete"]);
        await retentionProvider.delete!("volume-retention", props);
        expect(await policy(ours)).toBe("Retain");
        expect(await policy(neighbours), "a volume outside the platform's namespaces").toBe("Delete");
    });

    it("the data outlives its namespace: the volume stays, released, when the claim goes", async () => {
        await request(cluster, "DELETE", "/api/v1/namespaces/logstore");
        const phase = await waitFor("the retained volume to be released", async () => {
            const pv = await getOrUndefined(cluster, `/api/v1/persistentvolumes/${ours}`);
            return pv?.status?.phase === "Released" ? pv.status.phase : undefined;
        });
        expect(phase).toBe("Released");
        // The stand-in deletes released volumes of policy Delete within a second; this one must still be there.
        await new Promise((r) => setTimeout(r, 2000));
        expect(await getOrUndefined(cluster, `/api/v1/persistentvolumes/${ours}`)).toBeDefined();
    });

    it("turning retention off changes nothing: a retained volume is never made deletable again", async () => {
        const bos = await claimIn("bos");
        await retentionProvider.create!({ ...props, retainVolumes: true });
        expect(await policy(bos)).toBe("Retain");
        await retentionProvider.update!("volume-retention", props, { ...props, retainVolumes: false });
        await retentionProvider.delete!("volume-retention", { ...props, retainVolumes: false });
        expect(await policy(bos)).toBe("Retain");
    });

    it("an unreachable cluster fails the step, so destroy stops before any data is deleted", async () => {
        const dead = props.kubeconfig.replace(/server: https:\/\/127\.0\.0\.1:\d+/, "server: https://127.0.0.1:9");
        expect(dead).not.toBe(props.kubeconfig);
        await expect(retentionProvider.delete!("volume-retention", { ...props, kubeconfig: dead })).rejects.toThrow();
    });
});
