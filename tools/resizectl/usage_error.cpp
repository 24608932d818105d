#include "usage_error.h"

#include <vector>

#include "suggestion.h"

namespace resized::ctl {

namespace {

bool isOptionGroup(const CLI::App* command)
{
    return command->get_name().empty();
}

// The command the parse got to: the last verb or sub-verb on the line.
const CLI::App& deepestCommand(const CLI::App& app)
{
    const CLI::App* command = &app;
    for (auto parsed = command->get_subcommands(); !parsed.empty(); parsed = command->get_subcommands())
        command = parsed.back();
    return *command;
}

std::vector<std::string> subcommandNames(const CLI::App& command)
{
    std::vector<std::string> names;
    for (const CLI::App* sub : command.get_subcommands([](const CLI::App* sub) { return !isOptionGroup(sub); }))
        names.push_back(sub->get_name());
    return names;
}

// Every option `command` takes: its own, those of its option groups, and
// (global options may follow the verb) those of the commands above it.
std::vector<std::string> optionNames(const CLI::App& command)
{
    std::vector<std::string> names;
    for (const CLI::App* level = &command; level; level = level->get_parent()) {
        std::vector<const CLI::App*> holders{level};
        for (const CLI::App* group : level->get_subcommands(isOptionGroup))
            holders.push_back(group);
        for (const CLI::App* holder : holders)
            for (const CLI::Option* option : holder->get_options()) {
                for (const auto& name : option->get_lnames())
                    names.push_back("--" + name);
                for (const auto& name : option->get_snames())
                    names.push_back("-" + name);
            }
    }
    return names;
}

std::string commandLine(const CLI::App& command)
{
    std::string line = command.get_name();
    for (const CLI::App* level = command.get_parent(); level; level = level->get_parent())
        line = level->get_name() + " " + line;
    return line;
}

// "; did you mean 'status'?" or, with nothing near, ".".
std::string hintOf(const std::optional<std::string>& nearest)
{
    return nearest ? "; did you mean '" + *nearest + "'?" : ".";
}

}  // namespace

std::optional<std::string> explainUnknownWord(const CLI::App& app, const CLI::ParseError& error)
{
    // Only these two stop at a word: a stray word where a verb was needed
    // (RequiredError), or one no command takes (ExtrasError). Told apart by
    // type: CLI11 names an ExtrasError after the command, not its class.
    if (!dynamic_cast<const CLI::RequiredError*>(&error) && !dynamic_cast<const CLI::ExtrasError*>(&error))
        return std::nullopt;
    const std::vector<std::string> unknown = app.remaining(true);
    if (unknown.empty())
        return std::nullopt;
    const std::string& word = unknown.front();
    const CLI::App& command = deepestCommand(app);

    if (word.starts_with("-") && word.size() > 1) {
        // "--memroy=1g" is the option --memroy.
        const std::string option = word.substr(0, word.find('='));
        return "unknown option '" + option + "' for '" + commandLine(command) + "'" +
               hintOf(nearestWord(option, optionNames(command))) + " See '" + commandLine(command) + " --help'.";
    }
    const auto verbs = subcommandNames(command);
    if (verbs.empty() || !command.get_subcommands().empty())
        return std::nullopt;
    const std::string where = &command == &app ? "" : " for '" + commandLine(command) + "'";
    auto nearest = nearestWord(word, verbs);
    if (!nearest && &command == &app)
        nearest = verbForSynonym(word);
    return "unknown command '" + word + "'" + where + hintOf(nearest) + " See '" + commandLine(command) + " --help'.";
}

void appendFooterEverywhere(CLI::App& app, const std::string& footer)
{
    for (CLI::App* command : app.get_subcommands([](CLI::App* sub) { return !isOptionGroup(sub); })) {
        const std::string own = command->get_footer();
        command->footer(own.empty() ? footer : own + "\n\n" + footer);
        appendFooterEverywhere(*command, footer);
    }
}

}  // namespace resized::ctl
