# bash completion for rigor: subcommands, their options, experiment names (from the YAML file on
# the command line) and plugin names (from `rigor plugins --names`).

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

_rigor() {
  local cur prev words cword
  _init_completion || return

  local commands="run plan validate config plugins report compare rounds store history check new-plugin"
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
    -o)
      _filedir
      return
      ;;
    --db)
      _filedir db
      return
      ;;
    --plugin-path | --config-path)
      _filedir -d
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
    --fail-on)
      COMPREPLY=($(compgen -W "undetermined unstable invalid incomparable missing" -- "$cur"))
      return
      ;;
    --threshold | --seed | --metric | --ignore-identity | --commit | --date | --branch | --tag | \
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

  case $command in
    run)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "-o --resume --force --only --dry-run --plugin-path --build
          --allow-commands --allow-unsafe-plugin-path --config-path --allow-external-extends
          --quiet --no-report --help" -- "$cur"))
      else
        _filedir '@(yaml|yml)'
      fi
      ;;
    plan | validate | config)
      if [[ $cur == -* ]]; then
        local opts="--only --plugin-path --build --config-path --allow-external-extends --help"
        [[ $command == plan ]] && opts+=" -o"
        [[ $command == config ]] && opts+=" --canonical --base-hash"
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
      else
        _filedir '@(yaml|yml)'
      fi
      ;;
    plugins)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--format --names --plugin-path --allow-unsafe-plugin-path
          --help" -- "$cur"))
      elif ((cword == 2)); then
        COMPREPLY=($(compgen -W "$(_rigor_plugins "$rigor" "${path_args[@]}")" -- "$cur"))
      fi
      ;;
    report)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--format -o --by --ref --help" -- "$cur"))
      else
        _filedir jsonl
      fi
      ;;
    compare)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--threshold --fail-on --format --ignore-identity --seed --axis
          --ref --candidate --help" -- "$cur"))
      else
        _filedir jsonl
      fi
      ;;
    rounds)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--metric --axis --format --help" -- "$cur"))
      else
        _filedir jsonl
      fi
      ;;
    store)
      if ((cword == 2)); then
        COMPREPLY=($(compgen -W "add ls export migrate --help" -- "$cur"))
        return
      fi
      case ${words[2]} in
        add)
          if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--db --commit --date --branch --tag --quiet --help" -- "$cur"))
          else
            _filedir jsonl
          fi
          ;;
        ls) COMPREPLY=($(compgen -W "--db --format --help" -- "$cur")) ;;
        export)
          COMPREPLY=($(compgen -W "--db --commit --import --experiment -o --help" -- "$cur"))
          ;;
        migrate) COMPREPLY=($(compgen -W "--db --quiet --help" -- "$cur")) ;;
      esac
      ;;
    history)
      local opts="--db --series --format --significance --min-magnitude --window --help"
      if [[ ${words[2]} == check ]]; then
        opts+=" --commit"
      else
        opts+=" -o --upto"
        ((cword == 2)) && opts+=" check"
      fi
      COMPREPLY=($(compgen -W "$opts" -- "$cur"))
      ;;
    check)
      COMPREPLY=($(compgen -W "--format --help" -- "$cur"))
      ;;
    new-plugin)
      # NAME is free text; DIR is a folder.
      if ((cword == 3)); then
        _filedir -d
      fi
      ;;
  esac
}
complete -F _rigor rigor
