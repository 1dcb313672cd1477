#!/usr/bin/env node
// `tally-hook <name>` is `tally hook <name>` without the CLI's start-up cost. The plugin's
// launcher does exactly this for its hooks (the one-file hook bundle, else the ES modules,
// and always exit 0), so this entry is that launcher.
'use strict';
require('../plugin/bin/tally-hook.js');
