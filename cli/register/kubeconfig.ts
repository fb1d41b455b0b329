/** Registration of `mara kubeconfig`; the command itself (cli/commands/kubeconfig.ts) is loaded when it runs. */
import type { Command } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { KubeconfigOptions } from "../commands/kubeconfig";

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("kubeconfig")
        .description("merge the deployed cluster into your kube config (other entries kept) and switch to it")
        .option("-s, --stack <name>", "stack whose cluster to add (default: the selected stack)")
        .option("--kubeconfig <path>", "kube config file to update (default: first KUBECONFIG entry, else ~/.kube/config)")
        .option("--context <name>", "name for the cluster, user and context (default: the stack's cluster_name)")
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        .action(action(ctx, (opts: KubeconfigOptions) => (require("../commands/kubeconfig") as typeof import("../commands/kubeconfig")).kubeconfig(opts, ctx)));
}
