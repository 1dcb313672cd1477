/** In-memory data of one demo app instance. Nothing is shared between instances. */
export interface Project {
  slug: string;
  name: string;
  milestones_enabled: boolean;
}

export interface Suite {
  id: number;
  project: string;
  title: string;
  description: string;
  position: number;
  created_at: string;
}

export interface TestCase {
  id: number;
  project: string;
  suite_id: number;
  title: string;
  priority: 'low' | 'normal' | 'high';
  status: 'draft' | 'ready';
  created_at: string;
}

export interface Milestone {
  id: number;
  project: string;
  title: string;
  due_date: string | null;
  created_at: string;
}

export interface DemoStore {
  projects: Project[];
  suites: Map<number, Suite>;
  tests: Map<number, TestCase>;
  milestones: Map<number, Milestone>;
  nextId: { suite: number; test: number; milestone: number };
}

export function createStore(): DemoStore {
  return {
    projects: [
      { slug: 'alpha-shop', name: 'Alpha Shop', milestones_enabled: true },
      { slug: 'beta-blog', name: 'Beta Blog', milestones_enabled: false },
    ],
    suites: new Map(),
    tests: new Map(),
    milestones: new Map(),
    // Distinct ranges make a mixed-up id obvious in a failing test.
    nextId: { suite: 101, test: 5001, milestone: 901 },
  };
}
