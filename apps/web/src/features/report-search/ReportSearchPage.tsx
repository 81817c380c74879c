import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  REPORT_SEARCH_KEYWORD_SUGGESTIONS,
  REPORT_SEARCH_MODALITIES,
  REPORT_SEARCH_PAGE_SIZES,
  REPORT_SEARCH_PAGE_SIZE_DEFAULT,
  WORKLIST_MESSAGES,
  reportSearchRangeProblem,
} from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { ReportSearchCard } from './ReportSearchCard';
import { searchReports } from './report-search.api';

interface TFilters {
  keywords: string;
  modality: string;
  tag: string;
  startTime: string;
  endTime: string;
}
const NO_FILTERS: TFilters = { keywords: '', modality: '', tag: '', startTime: '', endTime: '' };

/** The refusal the server answered (403 switch off, 400 naming a field), else a generic line. */
function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string') return body.errorDescription;
  }
  return 'The search failed. Please try again.';
}

/**
 * /search-page (spec-core §2 Report search page; issue 24 §2): signed-off reports found by keywords
 * (with the spec's preset suggestions), modality, tag and signed-off days, as cards with the words
 * marked; pages of 20 or 50. The filters apply on Search; the pages move the last search.
 */
export function ReportSearchPage() {
  const [form, setForm] = useState<TFilters>(NO_FILTERS);
  const [applied, setApplied] = useState<TFilters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(REPORT_SEARCH_PAGE_SIZE_DEFAULT);
  const rangeProblem = reportSearchRangeProblem(form.startTime, form.endTime);
  const request = { ...applied, page, size };
  const query = useQuery({
    queryKey: ['report-search', request],
    queryFn: ({ signal }) => searchReports(request, signal),
    placeholderData: keepPreviousData,
  });
  const set = (field: keyof TFilters) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (rangeProblem) return;
    setApplied({ ...form, keywords: form.keywords.trim(), tag: form.tag.trim() });
    setPage(0);
  };
  const clear = () => {
    setForm(NO_FILTERS);
    setApplied(NO_FILTERS);
    setPage(0);
  };
  const total = query.data?.hits.total;
  const hits = query.data?.hits.hits ?? [];
  const [emptyTitle, ...emptyHints] = WORKLIST_MESSAGES.emptyState;

  return (
    <Box component="section">
      <PageHeader title="Report Search" />
      <Paper variant="outlined" sx={{ p: 1.5, mb: 2 }}>
        <Box
          component="form"
          role="search"
          aria-label="Report search"
          onSubmit={submit}
          sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}
        >
          <Autocomplete
            freeSolo
            options={REPORT_SEARCH_KEYWORD_SUGGESTIONS}
            inputValue={form.keywords}
            onInputChange={(_, v) => set('keywords')(v)}
            onChange={(_, v) => set('keywords')(v ?? '')}
            sx={{ minWidth: 280, flex: 2 }}
            renderInput={(params) => <TextField {...params} label="Keywords" />}
          />
          <TextField
            select
            label="Modality"
            value={form.modality}
            onChange={(e) => set('modality')(e.target.value)}
            sx={{ minWidth: 120 }}
          >
            <MenuItem value="">Any</MenuItem>
            {REPORT_SEARCH_MODALITIES.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Tag"
            value={form.tag}
            onChange={(e) => set('tag')(e.target.value)}
            sx={{ width: 160 }}
          />
          <TextField
            label="Start date"
            type="date"
            value={form.startTime}
            onChange={(e) => set('startTime')(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
            error={rangeProblem?.field === 'startTime'}
            helperText={rangeProblem?.field === 'startTime' ? rangeProblem.message : ' '}
          />
          <TextField
            label="End date"
            type="date"
            value={form.endTime}
            onChange={(e) => set('endTime')(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
            error={rangeProblem?.field === 'endTime'}
            helperText={rangeProblem?.field === 'endTime' ? rangeProblem.message : ' '}
          />
          <Box sx={{ display: 'flex', gap: 1, pt: 0.5 }}>
            <Button type="submit" variant="contained" disabled={rangeProblem !== null}>
              Search
            </Button>
            <Button onClick={clear}>Clear</Button>
          </Box>
        </Box>
      </Paper>
      <Box sx={{ height: 2 }}>{query.isFetching && <LinearProgress sx={{ height: 2 }} />}</Box>
      {query.isError && <Alert severity="error">{messageOf(query.error)}</Alert>}
      {query.isSuccess && total && (
        <Typography role="status" data-testid="report-search-total" color="text.secondary" sx={{ my: 1 }}>
          {total.relation === 'gte'
            ? `More than ${total.value.toLocaleString('en')} reports`
            : `${total.value.toLocaleString('en')} ${total.value === 1 ? 'report' : 'reports'}`}
        </Typography>
      )}
      {query.isSuccess && hits.length === 0 && (
        <Box sx={{ textAlign: 'center', py: 4 }} data-testid="report-search-empty">
          <Typography sx={{ fontWeight: 600 }}>{emptyTitle}</Typography>
          {emptyHints.map((line) => (
            <Typography key={line} color="text.secondary">
              {line}
            </Typography>
          ))}
        </Box>
      )}
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {hits.map((hit) => (
          <ReportSearchCard key={hit.id} hit={hit} />
        ))}
      </Box>
      {hits.length > 0 && total && (
        <TablePagination
          component="div"
          count={total.value}
          page={page}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={size}
          rowsPerPageOptions={[...REPORT_SEARCH_PAGE_SIZES]}
          labelRowsPerPage="Reports per page"
          onRowsPerPageChange={(e) => {
            setSize(Number(e.target.value));
            setPage(0);
          }}
        />
      )}
    </Box>
  );
}

export default ReportSearchPage;
