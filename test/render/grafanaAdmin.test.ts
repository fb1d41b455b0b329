/**
 * Grafana's admin password takes effect when it changes, as Helm renders the platform's kube-prometheus-stack
 * release: the init container that sets it with Grafana's CLI is in Grafana's pod, from the image Grafana runs, with
 * the volumes it writes mounted as Grafana mounts them and the password from the Secret only; the pod is replaced,
 * not rolled; its template carries the Secret's revision, which a changed password moves; and `mara render` turns
 * that revision into Reloader's annotation, as for every workload that reads a Secret. What only a running Grafana
 * shows (the CLI accepting the database, the new password logging in) is in docs/components/prometheus.md.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GRAFANA_ADMIN_INIT_CONTAINER, GRAFANA_ADMIN_SCRIPT } from "../../components/prometheus/grafanaAdmin";
import { SECRETS_REVISION_ANNOTATION } from "../../components/passwordRotation";
import { releasesOf } from "../../render/collect";
import { restartsForGitOps, RELOADER_SECRETS } from "../../render/podRestarts";
import { KubeObject, parseManifest, vendoredChart } from "../support/charts";
import { fixture } from "../support/config";
import { helmTemplate } from "../support/helm";
import { runProgram } from "../support/program";
import { TARGET_KUBE_VERSION } from "./kubernetesSchema";

type Container = { name: string; image: string; command?: string[]; env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } }; value?: string }[]; volumeMounts?: { name: string; mountPath: string; subPath?: string }[] };
type Deployment = KubeObject & {
    spec: { strategy?: { type: string }; template: { metadata: { annotations: Record<string, string> }; spec: { initContainers: Container[]; containers: Container[]; volumes: { name: string }[] } } };
};

async function grafanaDeployment(password: string): Promise<Deployment> {
    const run = await runProgram(withPassword(password));
    expect(run.error).toBeUndefined();
    const spec = releasesOf(run.registrations).find((r) => r.chart === "kube-prometheus-stack")!;
    const rendered = await helmTemplate({
        release: spec.release,
        namespace: spec.namespace,
        chartPath: vendoredChart(spec.chart, spec.version)!,
        values: spec.values,
        kubeVersion: TARGET_KUBE_VERSION,
        includeCrds: false,
    });
    if (!rendered.ok) throw new Error(rendered.error);
    return parseManifest(rendered.manifest).find((o) => o.kind === "Deployment" && o.metadata?.name === "prometheus-grafana") as Deployment;
}

function withPassword(password: string) {
    const raw = fixture("mara-kubeconfig");
    return { ...raw, values: { ...raw.values, "mara:grafanaAdminPassword": password }, secretKeys: new Set([...raw.secretKeys, "mara:grafanaAdminPassword"]) };
}

describe("Grafana's admin password, as Helm renders the release", () => {
    let grafana: Deployment;
    let rotated: Deployment;

    beforeAll(async () => {
        [grafana, rotated] = [await grafanaDeployment("grafana-password-one"), await grafanaDeployment("grafana-password-two")];
    }, 180_000);

    it("runs the admin-password init container from Grafana's own image, after the chart's chown of the data volume", () => {
        const pod = grafana.spec.template.spec;
        const names = pod.initContainers.map((c) => c.name);
        expect(names).toContain(GRAFANA_ADMIN_INIT_CONTAINER);
        expect(names.indexOf(GRAFANA_ADMIN_INIT_CONTAINER)).toBeGreaterThan(names.indexOf("init-chown-data"));
        const init = pod.initContainers.find((c) => c.name === GRAFANA_ADMIN_INIT_CONTAINER)!;
        const main = pod.containers.find((c) => c.name === "grafana")!;
        // The chart's tpl resolved the image to exactly the one Grafana runs: its CLI matches its database.
        expect(init.image).toBe(main.image);
        expect(init.image).toMatch(/^docker\.io\/grafana\/grafana:\d+\.\d+\.\d+$/);
        expect(init.command).toEqual(["sh", "-c", GRAFANA_ADMIN_SCRIPT]);
    });

    it("mounts the data volume and grafana.ini where Grafana mounts them, and reads the password from the Secret only", () => {
        const pod = grafana.spec.template.spec;
        const init = pod.initContainers.find((c) => c.name === GRAFANA_ADMIN_INIT_CONTAINER)!;
        const main = pod.containers.find((c) => c.name === "grafana")!;
        for (const mount of init.volumeMounts!) {
            expect(pod.volumes.map((v) => v.name), mount.name).toContain(mount.name);
            expect(main.volumeMounts, mount.name).toContainEqual(expect.objectContaining(mount));
        }
        expect(init.volumeMounts!.map((m) => m.mountPath).sort()).toEqual(["/etc/grafana/grafana.ini", "/var/lib/grafana"]);
        expect(init.env).toEqual([{ name: "GRAFANA_ADMIN_PASSWORD", valueFrom: { secretKeyRef: { name: "grafana-admin", key: "admin-password" } } }]);
        // Grafana itself reads the same Secret: one source for the password.
        expect(main.env).toContainEqual({ name: "GF_SECURITY_ADMIN_PASSWORD", valueFrom: { secretKeyRef: { name: "grafana-admin", key: "admin-password" } } });
        expect(JSON.stringify(grafana)).not.toContain("grafana-password-one");
    });

    it("replaces the pod instead of rolling it, so two Grafanas never share the database", () => {
        expect(grafana.spec.strategy).toEqual({ type: "Recreate" });
    });

    it("changes the pod template when the password changes, and only the Secret's revision in it", () => {
        const annotation = (d: Deployment) => d.spec.template.metadata.annotations[SECRETS_REVISION_ANNOTATION];
        expect(annotation(grafana)).toMatch(/^grafana-admin=\d+$/);
        expect(annotation(rotated)).not.toBe(annotation(grafana));
        const { [SECRETS_REVISION_ANNOTATION]: _a, ...before } = grafana.spec.template.metadata.annotations;
        const { [SECRETS_REVISION_ANNOTATION]: _b, ...after } = rotated.spec.template.metadata.annotations;
        expect(after).toEqual(before);
        expect(JSON.stringify(rotated)).not.toContain("grafana-password-two");
    });

    it("under GitOps, names the Secret for Reloader instead, as every workload that reads one", () => {
        const converted = restartsForGitOps(grafana) as Deployment;
        expect(converted.metadata!.annotations![RELOADER_SECRETS]).toBe("grafana-admin");
        expect(converted.spec.template.metadata.annotations).not.toHaveProperty(SECRETS_REVISION_ANNOTATION);
    });
});
