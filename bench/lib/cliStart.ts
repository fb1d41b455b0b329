/**
 * How long `mara` takes to answer, as a user starts it (`node bin/mara.js ...` in the repository), against the
 * floor of starting Node.js at all (`node -e 0`): the wall time of each fresh process as this process sees it,
 * its CPU time and its peak memory (bench/lib/hostReport.cjs). The floor and every command line are started in
 * turn, round after round, so that whatever else the machine is doing weighs on all of them alike; the targets
 * are ratios of the medians to the floor's.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { performance } from "perf_hooks";
import { median } from "./child";
import { REPO } from "./stacks";

/**
 * Targets of the issue, as multiples of the floor's median wall time. `manyKeys`: a stack file with 20,000 keys nothing
 * reads is validated in about a second, not minutes (the suggestion search rules candidates out before computing a
 * distance, so its cost grows with the number of keys, not their square); test/cli/manyKeys.test.ts checks what it
 * prints, this its time.
 */
export const CLI_TARGETS = { help: 2, validate: 4, manyKeys: 40 };

/** One command line and its target. */
export interface CliCase {
    readonly args: string[];
    /** At most this many times the floor's median wall time. */
    readonly targetX: number;
}

/** One measured process: the floor or a command line. */
export interface Measured {
    readonly wallS: number;
    /** CPU seconds the process used (user and system): on a busy machine, what the command itself costs. */
    readonly cpuS: number;
    readonly maxRssMb: number;
    readonly runsS: number[];
}

/** One measured command line, with its ratios to the floor. */
export interface CliResult extends CliCase, Measured {
    readonly wallX: number;
    readonly cpuX: number;
}

/** The floor and every command line of one run. */
export interface CliMeasurement {
    readonly floor: Measured;
    readonly results: CliResult[];
}

/** `mara --help`, every command's `--help`, `mara list-providers`, and `mara validate` on stack files. */
export function cliCases(): CliCase[] {
    const commands = ["init", "plan", "render", "validate", "list-providers", "outdated", "up", "preview", "destroy", "refresh", "kubeconfig", "verify"];
    return [
        { args: ["--help"], targetX: CLI_TARGETS.help },
        { args: ["list-providers"], targetX: CLI_TARGETS.help },
        ...commands.map((c) => ({ args: [c, "--help"], targetX: CLI_TARGETS.help })),
        { args: ["validate", "--config-file", "bench/stacks/Pulumi.aws.yaml"], targetX: CLI_TARGETS.validate },
        { args: ["validate", "--config-file", path.relative(REPO, manyKeysStack())], targetX: CLI_TARGETS.manyKeys },
    ];
}

/**
 * Writes (under bench/results/, which git ignores) the AWS stack with 20,000 keys nothing reads: misspelled keys of
 * MARA's namespaces and a provider's, and keys of a misspelled namespace, each looked up for a suggestion. All are
 * warnings, so `mara validate` exits 0 as the measurement needs.
 */
function manyKeysStack(): string {
    const file = path.join(REPO, "bench", "results", "Pulumi.many-keys.yaml");
    const keys = Array.from({ length: 20_000 }, (_, i) => `  ${[`kic:image_nam${i}`, `aws:profil${i}`, `kic-hlem:fqdn${i}`, `certmgr:helm_tmeout${i}`][i % 4]}: x`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `config:\n  kubernetes:infra_type: AWS\n  aws:region: us-east-1\n${keys.join("\n")}\n`);
    return file;
}

/** The floor: Node.js starting and exiting, with the same preload as the measured commands. */
const FLOOR = ["-e", "0"];

/**
 * Runs one warm-up round (it fills bin/tsLoader.js's caches after an edit, and the file cache), then `repeat`
 * measured rounds, each starting the floor and then every case once; reports medians.
 */
export function measureCli(repeat: number, cases: CliCase[] = cliCases()): CliMeasurement {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-cli-"));
    const report = path.join(dir, "report.json");
    const env = { ...process.env, NO_COLOR: "1", NODE_OPTIONS: `--require ${path.join(__dirname, "hostReport.cjs")}`, MARA_HOST_REPORT: report };
    const start = (args: string[]) => {
        const t = performance.now();
        const res = spawnSync(process.execPath, args, { cwd: REPO, env, encoding: "utf8" });
        const wallS = (performance.now() - t) / 1000;
        if (res.status !== 0) throw new Error(`node ${args.join(" ")} exited ${res.status}:\n${res.stderr}`);
        const { maxRssMb, cpuMs } = JSON.parse(fs.readFileSync(report, "utf8")) as { maxRssMb: number; cpuMs: number };
        return { wallS, cpuS: cpuMs / 1000, maxRssMb };
    };
    const lines = [FLOOR, ...cases.map((c) => [path.join(REPO, "bin", "mara.js"), ...c.args])];
    const runs: { wallS: number; cpuS: number; maxRssMb: number }[][] = lines.map(() => []);
    try {
        for (let round = 0; round <= repeat; round++) {
            lines.forEach((args, i) => {
                const r = start(args);
                if (round > 0) runs[i]!.push(r);
            });
        }
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
    const summary = (rs: { wallS: number; cpuS: number; maxRssMb: number }[]): Measured => ({
        wallS: median(rs.map((r) => r.wallS)),
        cpuS: median(rs.map((r) => r.cpuS)),
        maxRssMb: median(rs.map((r) => r.maxRssMb)),
        runsS: rs.map((r) => Number(r.wallS.toFixed(3))),
    });
    const floor = summary(runs[0]!);
    const results = cases.map((c, i) => {
        const m = summary(runs[i + 1]!);
        return { ...c, ...m, wallX: m.wallS / floor.wallS, cpuX: m.cpuS / floor.cpuS };
    });
    return { floor, results };
}
