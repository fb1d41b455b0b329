/**
 * Imported first by index.ts, so that the program stops with one line naming the Node.js it needs before any
 * of its modules loads on a Node.js that cannot run them. A RunError, so the Pulumi CLI prints the line alone,
 * without a stack trace.
 */
import { RunError } from "@pulumi/pulumi/errors";
import { unsupportedNodeMessage } from "../contracts/nodeSupport";

const problem = unsupportedNodeMessage("MARA program");
if (problem) throw new RunError(problem);
