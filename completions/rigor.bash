# bash completion for rigor: subcommands, their options (read from `rigor COMMAND --help`, so
# they never drift from the binary), experiment names (from the YAML file on the command line)
# and plugin names (from `rigor plugins --names`). Works with the bash-completion package and,
# more plainly, without it.

# Experiment names of a rigor YAML file: the `- name:` entries under `experiments:`.
_rigor_experiments() {
  local file=$1
  [[ -r $file ]] || return
  awk '
    /^experiments:/ { inside = 1; next }
    /^[^ #-]/      { inside = 0 }
    inside && /^  *- *name:/ {
      sub(/^  *- *name: */, ""); sub(/ *#.*$/, ""); gsub(/["'\'']/, ""); print
    }' "$file"
}

_rigor_plugins() {
  local rigor=$1
  shift
  "$rigor" plugins --names "$@" 2>/dev/null
}

# The options `rigor COMMAND [SUBCOMMAND] --help` lists: the labels before each option's text.
_rigor_options() {
  local rigor=$1
  shift
  "$rigor" "$@" --help 2>/dev/null | awk '
    /^options:/ { inside = 1; next }
    inside && /^ / {
      for (i = 1; i <= NF && $i ~ /^-/; i++) { label = $i; sub(/,$/, "", label); print label }
    }'
}

# Without the bash-completion package: file names, or folders with -d.
_rigor_files() {
  if declare -F _filedir >/dev/null; then
    _filedir "$@"
  elif [[ $1 == -d ]]; then
    COMPREPLY=($(compgen -d -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

_rigor() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion || return
  else
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
  fi

  local commands="run plan validate config plugins report compare rounds import store history screen check new-plugin"
  local import_formats="nccl-tests hyperfine google-benchmark pyperf"
  if ((cword == 1)); then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi

  local command=${words[1]} rigor=${words[0]}
  local -a path_args=()
  local i
  for ((i = 2; i < cword; i++)); do
    if [[ ${words[i]} == --plugin-path ]]; then
      path_args+=(--plugin-path "${words[i + 1]}")
    fi
  done

  case $prev in
    -o | --output)
      _rigor_files
      return
      ;;
    --db)
      _rigor_files db
      return
      ;;
    --plugin-path | --config-path)
      _rigor_files -d
      return
      ;;
    --format)
      case $command in
        plugins) COMPREPLY=($(compgen -W "text md" -- "$cur")) ;;
        report) COMPREPLY=($(compgen -W "text md csv json html" -- "$cur")) ;;
        history)
          if [[ ${words[2]} == check ]]; then
            COMPREPLY=($(compgen -W "text json" -- "$cur"))
          else
            COMPREPLY=($(compgen -W "text json html" -- "$cur"))
          fi
          ;;
        *) COMPREPLY=($(compgen -W "text md csv json html" -- "$cur")) ;;
      esac
      return
      ;;
    --by)
      COMPREPLY=($(compgen -W "variant point" -- "$cur"))
      return
      ;;
    --from)
      COMPREPLY=($(compgen -W "$import_formats" -- "$cur"))
      return
      ;;
    --fail-on)
      COMPREPLY=($(compgen -W "undetermined inconclusive invalid incomparable missing" -- "$cur"))
      return
      ;;
    --threshold | --seed | --metric | --ignore-identity | --map | --commit | --date | --branch | --tag | \
      --import | --experiment | --series | --upto | --significance | --min-magnitude | --window | \
      --axis | --ref | --candidate | --build)
      return
      ;;
    --only)
      local file=""
      for ((i = 2; i < cword; i++)); do
        case ${words[i]} in
          *.yaml | *.yml) file=${words[i]} ;;
        esac
      done
      COMPREPLY=($(compgen -W "$(_rigor_experiments "$file")" -- "$cur"))
      return
      ;;
  esac

  local -a sub=()
  case $command in
    store | history)
      if ((cword == 2)); then
        local subs="add ls export migrate"
        [[ $command == history ]] && subs="check $(_rigor_options "$rigor" history)"
        COMPREPLY=($(compgen -W "$subs --help" -- "$cur"))
        return
      fi
      [[ ${words[2]} != -* ]] && sub=("${words[2]}")
      ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_rigor_options "$rigor" "$command" "${sub[@]}")" -- "$cur"))
    return
  fi
  case $command in
    run | plan | validate | config) _rigor_files '@(yaml|yml)' ;;
    report | compare | rounds) _rigor_files jsonl ;;
    import)
      # FORMAT, then the tool's files (text logs or JSON).
      if ((cword == 2)); then
        COMPREPLY=($(compgen -W "$import_formats" -- "$cur"))
      else
        _rigor_files
      fi
      ;;
    store)
      if [[ ${sub[0]} == add ]]; then
        local w
        for w in "${words[@]}"; do
          if [[ $w == --from* ]]; then
            _rigor_files
            return
          fi
        done
        _rigor_files jsonl
      fi
      ;;
    plugins)
      if ((cword == 2)); then
        COMPREPLY=($(compgen -W "$(_rigor_plugins "$rigor" "${path_args[@]}")" -- "$cur"))
      fi
      ;;
    new-plugin)
      # NAME is free text; DIR is a folder.
      ((cword == 3)) && _rigor_files -d
      ;;
  esac
}
complete -F _rigor rigor
