/**
 * The floor the platform's no-change `preview` and `up` are measured against: a Pulumi program that registers
 * one Kubernetes provider for the test cluster and nothing else. It runs on what the platform runs on (the tier's
 * CLI, language host and Kubernetes provider plugin, @pulumi/pulumi and @pulumi/kubernetes from the project's own
 * node_modules, linked; the same local file backend and passphrase), as plain JavaScript, so what it costs is what
 * any Kubernetes program on this CLI pays before it declares anything.
 */
import * as fs from "fs";
import * as path from "path";
import { CONTEXT, ROOT, TestCluster } from "./cluster";
import { pulumi, PulumiSandbox, tail } from "./pulumiEnv";

/** The floor program's project folder and stack. */
export interface FloorProject {
    readonly dir: string;
    readonly stack: string;
    dispose(): void;
}

/** Writes the floor program into the sandbox and creates its stack in the sandbox's backend. */
export async function floorProject(sandbox: PulumiSandbox, cluster: TestCluster, stack: string): Promise<FloorProject> {
    const dir = path.join(sandbox.dir, "floor");
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: floor\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n");
    fs.writeFileSync(
        path.join(dir, "index.js"),
        [
            `const fs = require("fs");`,
            `const k8s = require("@pulumi/kubernetes");`,
            `new k8s.Provider("floor", { kubeconfig: fs.readFileSync(${JSON.stringify(cluster.kubeconfig)}, "utf8"), context: ${JSON.stringify(CONTEXT)} });`,
            "",
        ].join("\n"),
    );
    const init = await pulumi(["stack", "init", stack, "--secrets-provider", "passphrase", "--non-interactive"], sandbox.env, { cwd: dir });
    if (init.code !== 0) throw new Error(`pulumi stack init ${stack} (floor) failed: ${tail(init)}`);
    return { dir, stack, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
