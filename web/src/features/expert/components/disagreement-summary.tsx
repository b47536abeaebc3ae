/**
 * A third check's view of where the first two experts disagreed: per criterion the marks of
 * «Эксперт 1» and «Эксперт 2» (rounds 1 and 2, never who they are) and their difference, then the
 * totals against the task's threshold. Their comments are not shown (see docs/design.md §3).
 */
import type { ExpertCriterion, ExpertDisagreement } from '@attesta/contract';
import { Paper, Table, Text } from '@mantine/core';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { formatNumber } from '../../../lib/format';

const show = (value: number | null) => (value === null ? '—' : formatNumber(value));

export function DisagreementSummary({
  summary,
  criteria,
  t,
}: {
  summary: ExpertDisagreement;
  criteria: readonly ExpertCriterion[];
  t: LooseT;
}) {
  const textOf = (code: string) => criteria.find((c) => c.code === code)?.text ?? '';
  return (
    <Paper withBorder p="xs" radius="sm" bg="orange.0" data-testid="disagreement-summary">
      <Text fw={600} size="sm" id="disagreement-title">
        {t('expert.third.title')}
      </Text>
      <Text size="xs" c="dimmed" mb={4}>
        {t('expert.third.hint')}
      </Text>
      <Table fz="sm" verticalSpacing={2} horizontalSpacing={6} aria-labelledby="disagreement-title">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('expert.third.criterion')}</Table.Th>
            <Table.Th ta="right">{t('expert.third.expert1')}</Table.Th>
            <Table.Th ta="right">{t('expert.third.expert2')}</Table.Th>
            <Table.Th ta="right">{t('expert.third.difference')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.criteria.map((row) => (
            <Table.Tr
              key={row.criterionCode}
              data-differs={row.difference ? true : undefined}
              data-testid={`disagreement-${row.criterionCode}`}
            >
              <Table.Td title={textOf(row.criterionCode)}>{row.criterionCode}</Table.Td>
              <Table.Td ta="right">{show(row.expert1)}</Table.Td>
              <Table.Td ta="right">{show(row.expert2)}</Table.Td>
              <Table.Td
                ta="right"
                fw={row.difference ? 700 : undefined}
                c={row.difference ? 'orange.9' : undefined}
              >
                {show(row.difference)}
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr data-testid="disagreement-total">
            <Table.Th scope="row">{t('expert.third.total')}</Table.Th>
            <Table.Td ta="right" fw={700}>
              {show(summary.totals.expert1)}
            </Table.Td>
            <Table.Td ta="right" fw={700}>
              {show(summary.totals.expert2)}
            </Table.Td>
            <Table.Td ta="right" fw={700} c="orange.9">
              {show(summary.totals.difference)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="xs" mt={4} data-testid="disagreement-threshold">
        {t('expert.third.threshold', { threshold: formatNumber(summary.threshold) })}
      </Text>
    </Paper>
  );
}
