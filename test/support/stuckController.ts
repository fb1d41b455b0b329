/** Service annotation that makes the fake cloud controllers fail to delete its load balancer, so the drain must. */
export const STUCK_CONTROLLER = "test.mara/controller-stuck";
