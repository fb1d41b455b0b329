/**
 * The Platform's built-in add-ons, one line each, in the order it creates them (components/platformUnit.ts says
 * what a unit is). Each is created after the add-ons it is created from: the log agent after the log store,
 * Prometheus after what it scrapes. The order of `addOns`, then `cluster`, is also the order of the platform's
 * namespaces in the admission policies' scope, which deployed stacks hold.
 */
import { ADMISSION_POLICIES_UNIT } from "./admissionPolicies/platformUnit";
import { CERT_MANAGER_UNIT } from "./certManager/platformUnit";
import { INGRESS_CONTROLLER_UNIT } from "./ingressController/platformUnit";
import { LOG_AGENT_UNIT } from "./logAgent/platformUnit";
import { LOGSTORE_UNIT } from "./logstore/platformUnit";
import { METALLB_UNIT } from "./metalLb/platformUnit";
import { NFS_STORAGE_UNIT } from "./nfsStorage/platformUnit";
import { OBSERVABILITY_UNIT } from "./observability/platformUnit";
import type { PlatformUnit } from "./platformUnit";
import { PROMETHEUS_UNIT } from "./prometheus/platformUnit";

/** The built-in add-ons by stage. */
export const PLATFORM_UNITS: { readonly cluster: readonly PlatformUnit[]; readonly addOns: readonly PlatformUnit[]; readonly guards: readonly PlatformUnit[] } = {
    /** What the platform's volumes and load balancers stand on: created before the platform's StorageClass. */
    cluster: [METALLB_UNIT, NFS_STORAGE_UNIT],
    /** The add-ons, each after those it is created from. */
    addOns: [INGRESS_CONTROLLER_UNIT, CERT_MANAGER_UNIT, LOGSTORE_UNIT, LOG_AGENT_UNIT, PROMETHEUS_UNIT, OBSERVABILITY_UNIT],
    /** What judges every object of the others: created last, after your own add-ons (`PlatformArgs.addOns`). */
    guards: [ADMISSION_POLICIES_UNIT],
};
