/**
 * The coordinator's diagnostic page: a warning when its subject tests' expert-graded tasks have too
 * few experts. Experts are the admin's to assign (docs/design.md §3), so the coordinator is told to
 * ask; nothing shows while the coverage is enough or cannot be read.
 */
import { useQuery } from '@tanstack/react-query';
import { ExpertCoverageAlert } from '../../../components/expert-coverage';
import { expertCoverage } from '../api/diagnostics';
import { schoolKeys } from '../api/shared';

export function ExpertCoverageNotice({ diagnosticId }: { diagnosticId: number }) {
  const coverage = useQuery({
    queryKey: [...schoolKeys.diagnostics('coordinator'), diagnosticId, 'expert-coverage'],
    queryFn: ({ signal }) => expertCoverage(diagnosticId, signal),
  });
  return coverage.data ? <ExpertCoverageAlert items={coverage.data.items} hint="askAdmin" /> : null;
}
