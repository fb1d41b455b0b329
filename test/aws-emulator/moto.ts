/**
 * moto, the AWS API emulator, in server mode on loopback: started by the tests that need it, on a port
 * the system picks, and stopped by them. It is installed by `bash test/aws-emulator/setup.sh` (CI runs
 * it first); when it is not, the tests fail and say so, never skip.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { AwsCommands, AwsSdk, AwsSender } from "../../components/drain/awsSdk";

const ROOT = path.join(__dirname, "..", "..");
/** Where setup.sh installs moto. */
export const MOTO_SERVER = path.join(ROOT, ".cache", "moto-venv", "bin", "moto_server");
const SETUP = "bash test/aws-emulator/setup.sh";

/** A running moto server. */
export interface Moto {
    /** `http://127.0.0.1:<port>`: the endpoint the AWS SDK clients are given. */
    readonly endpoint: string;
    /** Forgets every resource (moto's own reset call), so each test starts with an empty account. */
    reset(): Promise<void>;
    /** Stops the server and waits for it to exit. */
    stop(): Promise<void>;
}

/** Starts moto on 127.0.0.1 with a free port and waits until it answers. */
export async function startMoto(timeoutMs = 60_000): Promise<Moto> {
    if (!fs.existsSync(MOTO_SERVER)) {
        throw new Error(`moto (the AWS API emulator of the drain's tests) is not installed: ${path.relative(ROOT, MOTO_SERVER)} is missing. Install it with \`${SETUP}\` (needs python3 with venv).`);
    }
    const child = spawn(MOTO_SERVER, ["-H", "127.0.0.1", "-p", "0"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PYTHONUNBUFFERED: "1" } });
    // Should the test process end without stopping it (a crash, an interrupted run), the server goes too.
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    let output = "";
    const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => fail(new Error(`moto did not start within ${timeoutMs / 1000} s`)), timeoutMs);
        const fail = (e: Error) => {
            clearTimeout(timer);
            child.kill("SIGKILL");
            reject(new Error(`${e.message}. Its output:\n${output}\nReinstall it with \`${SETUP}\`.`));
        };
        const read = (chunk: Buffer) => {
            output += chunk.toString();
            const m = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
            if (m) {
                clearTimeout(timer);
                resolve(Number(m[1]));
            }
        };
        child.stdout!.on("data", read);
        child.stderr!.on("data", read);
        child.once("error", (e) => fail(e));
        child.once("exit", (code) => fail(new Error(`moto exited with code ${code} before it listened`)));
    });
    child.removeAllListeners("exit");
    // Drain its request log so a full pipe never blocks it.
    child.stdout!.resume();
    child.stderr!.resume();
    const endpoint = `http://127.0.0.1:${port}`;
    await waitUntilAnswers(`${endpoint}/moto-api/`, timeoutMs);
    return {
        endpoint,
        async reset() {
            const res = await fetch(`${endpoint}/moto-api/reset`, { method: "POST" });
            if (!res.ok) throw new Error(`moto reset: ${res.status}`);
        },
        stop: () => {
            process.removeListener("exit", killOnExit);
            return stopProcess(child);
        },
    };
}

async function waitUntilAnswers(url: string, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
        try {
            if ((await fetch(url)).ok) return;
        } catch {
            // not listening yet
        }
        if (Date.now() > until) throw new Error(`moto did not answer ${url} within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 100));
    }
}

function stopProcess(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
        const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
            clearTimeout(force);
            resolve();
        });
        child.kill("SIGTERM");
    });
}

/** The three AWS SDK v3 clients the drain uses, pointed at `endpoint` with moto's test credentials. */
export function sdkFor(endpoint: string, region = "us-east-1"): AwsSdk {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const ec2 = require("@aws-sdk/client-ec2") as AwsCommands & { EC2Client: new (c: object) => AwsSender };
    const elb = require("@aws-sdk/client-elastic-load-balancing") as AwsCommands & { ElasticLoadBalancingClient: new (c: object) => AwsSender };
    const elbv2 = require("@aws-sdk/client-elastic-load-balancing-v2") as AwsCommands & { ElasticLoadBalancingV2Client: new (c: object) => AwsSender };
    /* eslint-enable @typescript-eslint/no-require-imports */
    const config = { region, endpoint, credentials: { accessKeyId: "testing", secretAccessKey: "testing" } };
    return {
        ec2: { commands: ec2, client: new ec2.EC2Client(config) },
        elb: { commands: elb, client: new elb.ElasticLoadBalancingClient(config) },
        elbv2: { commands: elbv2, client: new elbv2.ElasticLoadBalancingV2Client(config) },
    };
}
