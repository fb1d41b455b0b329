/**
 * How long `mara` takes to answer, as a user starts it (`node bin/mara.js ...` in the repository): the
 * wall time of each fresh process as this process sees it, and its peak memory (bench/lib/hostReport.cjs).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { performance } from "perf_hooks";
import { median } from "./child";
import { REPO } from "./stacks";

/** Targets of the issue, in seconds of wall time. */
export const CLI_TARGETS = { help: 0.3, validate: 1 };

/** One command line and its target. */
export interface CliCase {
    readonly args: string[];
    readonly targetS: number;
}

/** One measured command line. */
export interface CliResult extends CliCase {
    readonly wallS: number;
    /** CPU seconds the process used (user and system): on a busy machine, what the command itself costs. */
    readonly cpuS: number;
    readonly maxRssMb: number;
    readonly runsS: number[];
}

/** `mara --help`, every command's `--help`, `mara list-providers`, and `mara validate` on a stack file. */
export function cliCases(): CliCase[] {
    const commands = ["init", "plan", "validate", "list-providers", "outdated", "up", "preview", "destroy", "refresh", "kubeconfig", "verify"];
    return [
        { args: ["--help"], targetS: CLI_TARGETS.help },
        { args: ["list-providers"], targetS: CLI_TARGETS.help },
        ...commands.map((c) => ({ args: [c, "--help"], targetS: CLI_TARGETS.help })),
        { args: ["validate", "--config-file", "bench/stacks/Pulumi.aws.yaml"], targetS: CLI_TARGETS.validate },
    ];
}

/** Runs each case `repeat` times (after one unmeasured run that warms the file cache) and takes medians. */
export function measureCli(repeat: number, cases: CliCase[] = cliCases()): CliResult[] {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-cli-"));
    const report = path.join(dir, "report.json");
    const env = { ...process.env, NO_COLOR: "1", NODE_OPTIONS: `--require ${path.join(__dirname, "hostReport.cjs")}`, MARA_HOST_REPORT: report };
    try {
        return cases.map((c) => {
            const runs: { wallS: number; cpuS: number; maxRssMb: number }[] = [];
            for (let i = 0; i <= repeat; i++) {
                const t = performance.now();
                const res = spawnSync(process.execPath, [path.join(REPO, "bin", "mara.js"), ...c.args], { cwd: REPO, env, encoding: "utf8" });
                const wallS = (performance.now() - t) / 1000;
                if (res.status !== 0) throw new Error(`mara ${c.args.join(" ")} exited ${res.status}:\n${res.stderr}`);
                const { maxRssMb, cpuMs } = JSON.parse(fs.readFileSync(report, "utf8")) as { maxRssMb: number; cpuMs: number };
                if (i > 0) runs.push({ wallS, cpuS: cpuMs / 1000, maxRssMb });
            }
            return { ...c, wallS: median(runs.map((r) => r.wallS)), cpuS: median(runs.map((r) => r.cpuS)), maxRssMb: median(runs.map((r) => r.maxRssMb)), runsS: runs.map((r) => Number(r.wallS.toFixed(3))) };
        });
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}
