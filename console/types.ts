/** The admin and /v1 answers the console reads (docs/api.md, "Admin API"), as the gateway sends them. */
export interface KeyObject {
  id: string;
  name: string;
  prefix: string;
  admin: boolean;
  scopes: { endpoints: string[] | null; models: string[] | null };
  rpm: number | null;
  tpm: number | null;
  concurrency: number | null;
  budget_usd: string | null;
  daily_budget_usd: string | null;
  monthly_budget_usd: string | null;
  spend: { total_usd: string; month_usd: string; day_usd: string };
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  status: 'active' | 'revoked' | 'expired';
}

export interface KeyWithSecret extends KeyObject {
  key: string;
  previous_key_expires_at?: string;
}

/** The token, image and video counts every ledger entry and usage group carries. */
export interface UsageCounts {
  input_uncached: number;
  cache_read: number;
  cache_write: number;
  output: number;
  reasoning: number;
  images: number;
  video_seconds: number;
}

export interface LedgerRecord extends UsageCounts {
  request_id: string;
  key_id: string | null;
  model: string;
  provider: string;
  upstream_model: string;
  endpoint: string;
  status: number;
  usage_estimated: boolean;
  cost_usd: string;
  created_at: string;
  duration_ms: number | null;
}

export interface UsageGroup extends UsageCounts {
  key_id?: string | null;
  model?: string;
  day?: string;
  requests: number;
  errors: number;
  cost_usd: string;
}

export interface SeriesPoint {
  at: string;
  value: number | string | null;
}

export interface AdminVideo {
  id: string;
  key_id: string | null;
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  model: string;
  provider: string;
  mode: string;
  seconds: number;
  size: string;
  cost_usd: string | null;
  error: { code: string; message: string } | null;
  created_at: string;
  completed_at: string | null;
  deleted_at: string | null;
  content_urls: { video?: string; thumbnail?: string } | null;
}

export interface List<T> {
  data: T[];
  has_more?: boolean;
  next_before?: string | null;
}
