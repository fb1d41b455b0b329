/** Registration of `mara open`; the command itself (cli/commands/open.ts) is loaded when it runs. */
import type { Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { OpenOptions } from "../commands/open";

/** Names `mara open` takes (cli/open/targets.ts has the Services); listed here so `--help` loads nothing else. */
const NAMES = "sirius, grafana, kibana, prometheus, alertmanager, elasticsearch";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("open")
        .argument("<name>", `the interface: ${NAMES}`)
        .description("reach one of the platform's web interfaces without DNS: port-forward through the kubeconfig and print the local URL")
        .option("-c, --config-file <path>", "a Pulumi.<stack>.yaml file")
        .option("-s, --stack <name>", "read ./Pulumi.<name>.yaml")
        .option("--kubeconfig <path>", "use this kubeconfig instead of the stack's")
        .option("--context <name>", "kubeconfig context to use")
        .option("--port <port>", "local port (default: a free one)")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (name: string, opts: OpenOptions) => (require("../commands/open") as typeof import("../commands/open")).open(name, opts, ctx)));
}
