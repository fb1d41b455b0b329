/** The engine benchmarks' measurement of one Pulumi CLI command (test/engine/bench.ts, benchSideBySide.ts). */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ENGINE_BIN, ROOT } from "./cluster";

/** Wall seconds, and user + system CPU seconds of the whole process tree. */
export interface Timing {
    wall: number;
    cpu: number;
}

/** Runs `pulumi <args>` under /usr/bin/time; rejects with the end of its stderr when it fails. */
export function timed(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Timing> {
    return new Promise((resolve, reject) => {
        // /usr/bin/time writes its report here: a folder of the checkout may not exist yet (bench/results/ is made late).
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-timed-"));
        const out = path.join(dir, "time");
        const child = spawn("/usr/bin/time", ["-f", "%e %U %S", "-o", out, path.join(ENGINE_BIN, "pulumi"), ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        child.stderr.on("data", (c: Buffer) => (err += c.toString()));
        child.on("exit", (code) => {
            const report = fs.existsSync(out) ? fs.readFileSync(out, "utf8") : "";
            fs.rmSync(dir, { recursive: true, force: true });
            const [wall, user, sys] = report.trim().split(/\s+/).slice(-3).map(Number);
            if (report === "" && code === 0) return reject(new Error(`pulumi ${args.join(" ")}: /usr/bin/time wrote no report (is GNU time installed?)`));
            if (code !== 0) reject(new Error(`pulumi ${args.join(" ")} failed (${code}): ${err.split("\n").slice(-20).join("\n")}`));
            else resolve({ wall: wall!, cpu: user! + sys! });
        });
    });
}

/** The median of a non-empty list (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
