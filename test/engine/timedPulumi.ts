/** The engine benchmarks' measurement of one Pulumi CLI command (test/engine/bench.ts, benchPace.ts). */
import { spawn } from "child_process";
import * as fs from "fs";
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
        const out = path.join(ROOT, "bench", "results", `.time-${process.pid}`);
        const child = spawn("/usr/bin/time", ["-f", "%e %U %S", "-o", out, path.join(ENGINE_BIN, "pulumi"), ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        child.stderr.on("data", (c: Buffer) => (err += c.toString()));
        child.on("exit", (code) => {
            const [wall, user, sys] = fs.readFileSync(out, "utf8").trim().split(/\s+/).slice(-3).map(Number);
            fs.rmSync(out, { force: true });
            if (code !== 0) reject(new Error(`pulumi ${args.join(" ")} failed (${code}): ${err.split("\n").slice(-20).join("\n")}`));
            else resolve({ wall: wall!, cpu: user! + sys! });
        });
    });
}

/** The median of a non-empty list (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
