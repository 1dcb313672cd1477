import type { EffectRechecker } from '../../core/recheck-effects.js';
import type { ApiClient } from './client/api-client.js';
import { titleOf, unwrap } from './tools/http-effects.js';

/**
 * Re-checks HTTP resources through a live client (the run's base URL and auth): one the run
 * created or updated must still answer a GET with the title its read-back observed; one it
 * deleted must still answer 404/410.
 */
export function httpRechecker(client: Pick<ApiClient, 'send'>): EffectRechecker {
  return {
    space: 'http',
    recheck: async (net) => {
      const response = await client.send({ method: 'GET', path: net.key });
      const via = `GET ${net.key} → ${response.status}`;
      const gone = response.status === 404 || response.status === 410;
      if (net.change === 'deleted')
        return gone
          ? { state: 'unchanged', what: `${via}: still gone` }
          : response.ok
            ? { state: 'drifted', what: `${via}: deleted by the run, but it exists again` }
            : { state: 'unchecked', what: via };
      if (gone) return { state: 'drifted', what: `${via}: gone` };
      if (!response.ok) return { state: 'unchecked', what: via };
      const recorded = net.observed.title;
      const now = titleOf(unwrap(response.body));
      if (typeof recorded === 'string' && now !== recorded)
        return { state: 'drifted', what: `${via}: title now "${String(now)}", the run left "${recorded}"` };
      return {
        state: 'unchanged',
        what: `${via}${typeof recorded === 'string' ? `, title "${recorded}"` : ''}`,
      };
    },
  };
}
