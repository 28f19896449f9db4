/** The metrics of GET /deliveries/v1/oracle/{metric} the spec names (section 4.8), with what each gives. */
export const ORACLE_METRIC_MEANINGS = {
  activity: 'aggregated activity (events and attempts)',
  planned: 'aggregated planned deliveries (time slots)',
  coverage: 'coverage metadata: countries, postcode areas, couriers',
} as const;

export type OracleMetric = keyof typeof ORACLE_METRIC_MEANINGS;

export const ORACLE_METRICS = Object.keys(ORACLE_METRIC_MEANINGS) as readonly OracleMetric[];
