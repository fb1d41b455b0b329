/**
 * The package as a library user runs it: `npm pack` (whose prepack builds dist/), the tarball installed into a
 * project of its own next to nothing else, and that project's program deployed by the real CLI on a test cluster.
 * Every component that puts objects on a cluster has an ownership guard, and every cluster a destroy drain, each a
 * dynamic resource: Pulumi serializes its provider's code when the resource is registered, naming each module of an
 * installed package it needs through the package's `exports` (`internal/*`), and its dynamic-provider host requires
 * them from the project when the resource is created, updated or deleted. The other files of this tier deploy the repository's own program from its sources, where the serializer
 * copies the modules' code instead.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nestedNpmEnv } from "../support/npmEnv";
import { ROOT, startCluster, TestCluster } from "./cluster";
import { getOrUndefined } from "./kubeApi";
import { pulumi, pulumiSandbox, PulumiSandbox, runCommand, tail } from "./pulumiEnv";

/**
 * As docs/library.md's "With MARA configuration" has it: the stack's MARA keys validated by `loadConfig`, the cluster
 * connected by `createInfrastructure` (an existing cluster: its Kubernetes provider and its destroy drain, a dynamic
 * resource), and an add-on on it (its ownership guard, another).
 */
const PROGRAM = `"use strict";
const k8s = require("@pulumi/kubernetes");
const { AdmissionPolicies } = require("mara-platform");
const { loadConfig } = require("mara-platform/config");
const { createInfrastructure } = require("mara-platform/providers");

const cfg = loadConfig();
const cluster = createInfrastructure(cfg);
const team = new k8s.core.v1.Namespace("team", { metadata: { name: "consumer-team" } }, { provider: cluster.provider });
const policies = new AdmissionPolicies("guardrails", { mode: "warn", namespaces: ["consumer-team"] }, { providers: [cluster.provider], dependsOn: [team] });
exports.policyNames = policies.policyNames;
`;

let cluster: TestCluster;
let sandbox: PulumiSandbox;
let project: string;

/** Runs a command in the consumer's project; fails with the end of its output. */
async function inProject(cmd: string, args: string[], timeoutMs: number): Promise<void> {
    const r = await runCommand(cmd, args, nestedNpmEnv(), { cwd: project, timeoutMs });
    if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.timedOut ? "timed out" : r.code}):\n${tail(r)}`);
}

beforeAll(async () => {
    const started = startCluster({ nodes: 1 });
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mara-consumer-"));
    project = path.join(tmp, "project");
    fs.mkdirSync(project);
    const pack = await runCommand("npm", ["pack", "--json", "--pack-destination", tmp], nestedNpmEnv(), { cwd: ROOT, timeoutMs: 5 * 60_000 });
    if (pack.code !== 0) throw new Error(`npm pack failed:\n${tail(pack)}`);
    const tarball = path.join(tmp, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", version: "0.0.0", private: true }, null, 2));
    // From npm's cache, which `npm ci` filled; without install scripts (Pulumi's packages would download provider
    // plugins; the tier's are on PATH).
    await inProject("npm", ["install", tarball, "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", "--save-exact"], 10 * 60_000);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: consumer\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n");
    fs.writeFileSync(path.join(project, "index.js"), PROGRAM);
    cluster = await started;
    sandbox = pulumiSandbox();
}, 15 * 60_000);

afterAll(async () => {
    sandbox?.dispose();
    await cluster?.stop();
    if (project) fs.rmSync(path.dirname(project), { recursive: true, force: true });
}, 5 * 60_000);

describe("a program that installs the package from npm", () => {
    it("deploys an add-on on a cluster from MARA configuration, the guard's and the drain's serialized providers requiring the package through its exports, and destroys it", async () => {
        const run = (args: string[]) => pulumi([...args, "--stack", "consumer", "--non-interactive"], sandbox.env, { cwd: project, timeoutMs: 10 * 60_000 });
        expect((await pulumi(["stack", "init", "consumer", "--secrets-provider", "passphrase", "--non-interactive"], sandbox.env, { cwd: project })).code).toBe(0);
        for (const [key, value] of [["mara:infraType", "kubeconfig"], ["mara:kubeconfig", cluster.kubeconfig], ["mara:fqdn", "consumer.example.test"]]) {
            expect((await run(["config", "set", key!, value!])).code).toBe(0);
        }

        const up = await run(["up", "--yes", "--skip-preview"]);
        expect(up.code, tail(up)).toBe(0);
        const names = JSON.parse((await run(["stack", "output", "policyNames", "--json"])).stdout) as string[];
        expect(names.length).toBeGreaterThan(5);
        for (const name of names) {
            expect(await getOrUndefined(cluster, `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/${name}`), name).toBeDefined();
        }
        // The guard and the drain ran in Pulumi's dynamic-provider host, from code that requires the installed package by name.
        const resources = (JSON.parse((await run(["stack", "export"])).stdout) as { deployment: { resources: { type: string; urn: string; inputs?: { __provider?: string } }[] } })
            .deployment.resources;
        const serialized = (name: string) => resources.find((r) => r.type === "pulumi-nodejs:dynamic:Resource" && r.urn.endsWith(`::${name}`))?.inputs?.__provider;
        expect(serialized("guardrails-ownership"), "the guard's serialized provider").toContain('require("mara-platform/internal/components/ownership/');
        expect(serialized("drain-drain"), "the drain's serialized provider").toContain('require("mara-platform/internal/components/drain/');

        const destroy = await run(["destroy", "--yes", "--skip-preview"]);
        expect(destroy.code, tail(destroy)).toBe(0);
        for (const name of names) {
            expect(await getOrUndefined(cluster, `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/${name}`), name).toBeUndefined();
        }
    });
});
