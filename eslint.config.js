import { dshConfig } from '@dsh/eslint-config';

export default dshConfig({ root: import.meta.dirname });
