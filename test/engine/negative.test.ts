/**
 * What the real API server, Kubernetes provider and Helm do with what must fail or be replaced, through a small
 * program of its own (test/engine/negative): each case a stack, on one test cluster.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startCluster, TestCluster } from "./cluster";
import { getOrUndefined, request } from "./kubeApi";
import { pulumi, pulumiSandbox, PulumiSandbox, tail } from "./pulumiEnv";

const PROJECT = path.join(ROOT, "test", "engine", "negative");
let cluster: TestCluster;
let sandbox: PulumiSandbox;

beforeAll(async () => {
    cluster = await startCluster({ nodes: 1 });
    sandbox = pulumiSandbox();
});
afterAll(async () => {
    // The CLI writes each case's stack file beside the program; a left-over one would seed the next run's config.
    for (const f of fs.readdirSync(PROJECT)) if (/^Pulumi\.negative-.+\.yaml$/.test(f)) fs.rmSync(path.join(PROJECT, f));
    sandbox?.dispose();
    await cluster?.stop();
});

/** A stack of the negative program for `which`, and a runner of pulumi commands on it. */
async function caseStack(which: string) {
    const name = `negative-${which}`;
    fs.rmSync(path.join(PROJECT, `Pulumi.${name}.yaml`), { force: true });
    const run = (args: string[], timeoutMs = 5 * 60_000) => pulumi([...args, "--stack", name, "--non-interactive"], sandbox.env, { cwd: PROJECT, timeoutMs });
    expect((await pulumi(["stack", "init", name, "--secrets-provider", "passphrase", "--non-interactive"], sandbox.env, { cwd: PROJECT })).code).toBe(0);
    for (const [k, v] of [["case", which], ["kubeconfig", cluster.kubeconfig]]) expect((await run(["config", "set", k!, v!])).code).toBe(0);
    return run;
}

describe("negative cases on the real API server", () => {
    it("a custom resource its CRD's schema and CEL rule refuse fails the update with the API server's message", async () => {
        const run = await caseStack("broken-cr");
        const up = await run(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up)).not.toBe(0);
        expect(up.stdout + up.stderr).toMatch(/size must be at most 10/);
        expect(await getOrUndefined(cluster, "/apis/negative.mara.test/v1/namespaces/default/widgets/too-big")).toBeUndefined();
        expect((await run(["destroy", "--yes", "--skip-preview"])).code).toBe(0);
    });

    it("an object in a namespace that does not exist fails with the API server's not-found", async () => {
        const run = await caseStack("missing-namespace");
        const up = await run(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up)).not.toBe(0);
        expect(up.stdout + up.stderr).toMatch(/namespaces "no-such-namespace" not found/);
    });

    it("a changed immutable field (a Deployment's selector) replaces the object instead of failing", async () => {
        const run = await caseStack("immutable");
        expect((await run(["up", "--yes", "--skip-preview"])).code).toBe(0);
        const before = (await request(cluster, "GET", "/apis/apps/v1/namespaces/default/deployments/web")).metadata.uid;
        expect((await run(["config", "set", "variant", "b"])).code).toBe(0);
        const up = await run(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up)).toBe(0);
        expect(up.stdout).toMatch(/replaced/);
        const after = await request(cluster, "GET", "/apis/apps/v1/namespaces/default/deployments/web");
        expect(after.metadata.uid).not.toBe(before);
        expect(after.spec.selector.matchLabels).toEqual({ app: "web-b" });
        expect((await run(["destroy", "--yes", "--skip-preview"])).code).toBe(0);
    });

    it("a release that never becomes ready fails at its timeout and is recorded as failed, and a destroy removes it", async () => {
        const run = await caseStack("never-ready");
        // The release's timeout is 20 s, Pulumi's default for a Release 300 s. The update is interrupted at 240 s,
        // between the two and twelve times the release's (room for a loaded machine): an update that ends by itself,
        // with a deadline's error, was ended by the release's own timeout. How long it took is not asserted.
        const up = await run(["up", "--yes", "--skip-preview"], 240_000);
        expect(up.timedOut, `still running after 240 s: the release's timeout did not end it\n${tail(up)}`).toBe(false);
        expect(up.code, tail(up)).not.toBe(0);
        expect(up.stdout + up.stderr).toMatch(/timed out|context deadline exceeded/i);
        const records = (await request<{ items: any[] }>(cluster, "GET", "/api/v1/namespaces/stuck/secrets?labelSelector=owner%3Dhelm")).items;
        expect(records.map((s) => s.metadata.labels.status)).toEqual(["failed"]);
        const down = await run(["destroy", "--yes", "--skip-preview"]);
        expect(down.code, tail(down)).toBe(0);
        expect((await request<{ items: any[] }>(cluster, "GET", "/apis/apps/v1/namespaces/stuck/deployments")).items).toEqual([]);
    });
});
